/**
 * Reading the many ways sources write times. Every function returns epoch milliseconds or null (never throws);
 * callers decide what a missing or implausible time means for their record.
 */
import { zonedTimeToUtc } from '../domain/time.js';

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

interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
}

/** A local wall-clock time in `tz`, or null when the calendar fields are out of range (e.g. 31 February). */
export function localTime(parts: LocalDateTime, tz: string): number | null {
  const { year, month, day, hour = 0, minute = 0, second = 0 } = parts;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  return zonedTimeToUtc({ year, month, day, hour, minute, second }, tz);
}

/** A unix time that may be seconds (ChatGPT, most logs) or milliseconds (JavaScript): above 1e11 it is ms. */
export function fromUnixAuto(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  return Math.round(Math.abs(value) >= 1e11 ? value : value * 1000);
}

const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;
const ISO_ZONED = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * An ISO 8601 date or date-time. With a zone (Z, +02:00) it is absolute; without one it is read in `tz`;
 * a date alone is local midnight.
 */
export function parseIsoTime(text: string, tz: string): number | null {
  const trimmed = text.trim();
  const local = ISO_LOCAL.exec(trimmed);
  if (local) {
    const [, y, mo, d, h, mi, s] = local;
    return localTime(
      {
        year: Number(y),
        month: Number(mo),
        day: Number(d),
        hour: Number(h ?? 0),
        minute: Number(mi ?? 0),
        second: Number(s ?? 0),
      },
      tz,
    );
  }
  if (ISO_ZONED.test(trimmed)) {
    const ms = Date.parse(trimmed.replace(' ', 'T'));
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
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
