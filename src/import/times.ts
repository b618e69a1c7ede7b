/**
 * Reading the many ways sources write times. Every function returns epoch milliseconds or null (never throws);
 * callers decide what a missing or implausible time means for their record.
 */
import { localTime, parseIsoTime } from '../domain/time.js';

export { localTime, parseIsoTime };

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/** A unix time that may be seconds (ChatGPT, most logs) or milliseconds (JavaScript): above 1e11 it is ms. */
export function fromUnixAuto(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  return Math.round(Math.abs(value) >= 1e11 ? value : value * 1000);
}

/** Any of: unix seconds or ms (number or digit string), ISO string, Date. */
export function parseFlexibleTime(value: unknown, tz: string): number | null {
  if (typeof value === 'number') return fromUnixAuto(value);
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.getTime() : null;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return fromUnixAuto(Number(trimmed));
  return parseIsoTime(trimmed, tz);
}

const LOCOMO = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i;

/** LoCoMo's "1:56 pm on 8 May, 2023", read in `tz`. */
export function parseLocomoDate(text: string, tz: string): number | null {
  const m = LOCOMO.exec(text.trim());
  if (!m) return null;
  const [, h, mi, ampm, d, monthName, y] = m;
  const month = MONTHS[(monthName ?? '').slice(0, 3).toLowerCase()];
  const hour12 = Number(h);
  if (month === undefined || hour12 < 1 || hour12 > 12) return null;
  const hour = (hour12 % 12) + ((ampm ?? '').toLowerCase() === 'pm' ? 12 : 0);
  return localTime({ year: Number(y), month, day: Number(d), hour, minute: Number(mi) }, tz);
}

const LONGMEMEVAL = /^(\d{4})\/(\d{2})\/(\d{2})(?:\s*\([A-Za-z]+\))?(?:\s+(\d{2}):(\d{2}))?$/;

/** LongMemEval's "2023/05/20 (Sat) 02:21", read in `tz`. */
export function parseLongMemEvalDate(text: string, tz: string): number | null {
  const m = LONGMEMEVAL.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi] = m;
  return localTime(
    { year: Number(y), month: Number(mo), day: Number(d), hour: Number(h ?? 0), minute: Number(mi ?? 0) },
    tz,
  );
}

/** "YYYY-MM-DD" at a given local hour (MemoryBank's day keys), or null when it is not a calendar date. */
export function parseDayKey(text: string, opts: { tz: string; hour: number }): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return null;
  return localTime({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: opts.hour }, opts.tz);
}
