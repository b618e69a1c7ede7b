/**
 * Explicit dates in a sentence, resolved against the time the sentence was written: "January 20",
 * "Friday, April 11", "on Monday", "May 16, 2025", "2025-03-03", "tomorrow". No library: a small, predictable
 * subset (chrono-node is not a dependency). Results are calendar days in the batch's time zone.
 */
import { MONTHS, WEEKDAYS } from './lexicon.js';
import { isValidTimeZone, localDayKey } from '../../domain/time.js';

/** Which way an unqualified date points: a promise ("by Friday") looks ahead, a report ("we launched on Monday") back. */
export type DateDirection = 'future' | 'past' | 'nearest';

export interface StatedDate {
  /** YYYY-MM-DD */
  ymd: string;
  /** The words that stated it. */
  text: string;
}

interface Ymd {
  y: number;
  m: number;
  d: number;
}

const MONTH_RE =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const WEEKDAY_RE = '(sunday|monday|tuesday|wednesday|thursday|friday|saturday)';
const MONTH_DAY = new RegExp(`\\b${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`, 'i');
const DAY_MONTH = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\b(?:,?\\s+(\\d{4}))?`, 'i');
const ISO = /\b(\d{4})-(\d{2})-(\d{2})\b/;
const WEEKDAY = new RegExp(`\\b(?:(this|next|last|on|by|until|before)\\s+)?${WEEKDAY_RE}\\b`, 'i');
const RELATIVE = /\b(today|tonight|tomorrow|yesterday)\b/i;

/** The calendar day of an instant in a time zone (UTC when the zone is unknown). */
export function localYmd(epochMs: number, tz: string): string {
  return localDayKey(epochMs, isValidTimeZone(tz) ? tz : 'UTC');
}

function parseYmd(ymd: string): Ymd {
  const [y = 1970, m = 1, d = 1] = ymd.split('-').map(Number);
  return { y, m, d };
}

function fmt(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function utc({ y, m, d }: Ymd): Date {
  return new Date(Date.UTC(y, m - 1, d));
}

function monthIndex(word: string): number {
  const w = word.toLowerCase().replace('.', '');
  return MONTHS.findIndex((m) => m.startsWith(w.slice(0, 3)));
}

function weekdayIndex(word: string): number {
  return WEEKDAYS.findIndex((d) => d.startsWith(word.toLowerCase().slice(0, 3)));
}

const DAY_MS = 86_400_000;

function pickYear(month: number, day: number, ref: Ymd, direction: DateDirection): Date | null {
  if (month < 0 || day < 1 || day > 31) return null;
  const candidates = [ref.y - 1, ref.y, ref.y + 1].map((y) => utc({ y, m: month + 1, d: day }));
  const refDate = utc(ref).getTime();
  const slack = 30 * DAY_MS;
  if (direction === 'future') return candidates.find((c) => c.getTime() >= refDate - slack) ?? null;
  if (direction === 'past') return [...candidates].reverse().find((c) => c.getTime() <= refDate + slack) ?? null;
  return candidates.reduce((best, c) =>
    Math.abs(c.getTime() - refDate) < Math.abs(best.getTime() - refDate) ? c : best,
  );
}

/** The first explicit date in `text`, or null. `refYmd` is the day the text was written (YYYY-MM-DD). */
export function findStatedDate(text: string, refYmd: string, direction: DateDirection): StatedDate | null {
  const ref = parseYmd(refYmd);
  const iso = ISO.exec(text);
  if (iso) return { ymd: `${iso[1]}-${iso[2]}-${iso[3]}`, text: iso[0] };
  const md = MONTH_DAY.exec(text);
  const dm = md ? null : DAY_MONTH.exec(text);
  if (md || dm) {
    const month = monthIndex((md ? md[1] : dm?.[2]) ?? '');
    const day = Number(md ? md[2] : dm?.[1]);
    const yearText = md ? md[3] : dm?.[3];
    // "may" is also a verb: only accept it as a month with a day number right after it (MONTH_DAY does that).
    const date = yearText ? utc({ y: Number(yearText), m: month + 1, d: day }) : pickYear(month, day, ref, direction);
    if (month >= 0 && date && !Number.isNaN(date.getTime())) return { ymd: fmt(date), text: (md ?? dm)?.[0] ?? '' };
  }
  const rel = RELATIVE.exec(text);
  if (rel?.[1]) {
    const word = rel[1].toLowerCase();
    const offset = word === 'tomorrow' ? 1 : word === 'yesterday' ? -1 : 0;
    return { ymd: fmt(new Date(utc(ref).getTime() + offset * DAY_MS)), text: rel[0] };
  }
  const wd = WEEKDAY.exec(text);
  if (wd?.[2]) {
    const target = weekdayIndex(wd[2]);
    const qualifier = wd[1]?.toLowerCase();
    const refDay = utc(ref);
    const refWd = refDay.getUTCDay();
    const back = qualifier === 'last' || (direction === 'past' && qualifier !== 'next' && qualifier !== 'by');
    const delta = back ? -((refWd - target + 7) % 7 || 7) : (target - refWd + 7) % 7 || 7;
    return { ymd: fmt(new Date(refDay.getTime() + delta * DAY_MS)), text: wd[0] };
  }
  return null;
}

/** A stated day as an ISO instant for `eventTime`: noon UTC keeps the calendar day in time zones from UTC−11 to UTC+11. */
export function eventTimeOf(ymd: string): string {
  return `${ymd}T12:00:00.000Z`;
}
