/**
 * Time math used across PIE. All instants are epoch milliseconds; day boundaries depend on an IANA time zone.
 * Pure functions only.
 */
import { PieError } from './errors.js';

const DAY_MS = 86_400_000;

const formatterCache = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(tz: string): Intl.DateTimeFormat {
  let f = formatterCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatterCache.set(tz, f);
  }
  return f;
}

export function isValidTimeZone(tz: string): boolean {
  try {
    partsFormatter(tz);
    return true;
  } catch {
    return false;
  }
}

export function assertTimeZone(tz: string): string {
  if (!isValidTimeZone(tz)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `Unknown time zone "${tz}"; use an IANA name such as "Europe/Berlin" or "UTC".`,
    );
  }
  return tz;
}

export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function localParts(ms: number, tz: string): LocalParts {
  // UTC needs no zone data: a Date's UTC fields are the same numbers (years 1 to 9999, where the formatter writes the
  // year as it is), at a fraction of formatToParts' cost. An invalid instant still fails in the formatter below.
  if (tz === 'UTC') {
    const d = new Date(ms);
    const year = d.getUTCFullYear();
    if (year >= 1 && year <= 9999) {
      return {
        year,
        month: d.getUTCMonth() + 1,
        day: d.getUTCDate(),
        hour: d.getUTCHours(),
        minute: d.getUTCMinutes(),
        second: d.getUTCSeconds(),
      };
    }
  }
  const out: Record<string, number> = {};
  for (const p of partsFormatter(tz).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return {
    year: out.year ?? 1970,
    month: out.month ?? 1,
    day: out.day ?? 1,
    hour: out.hour ?? 0,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
  };
}

/** The local calendar day of an instant, as YYYY-MM-DD. */
export function localDayKey(ms: number, tz: string): string {
  const p = localParts(ms, tz);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** Offset of `tz` from UTC at instant `ms`, in milliseconds. */
export function zoneOffsetMs(ms: number, tz: string): number {
  const p = localParts(ms, tz);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant at which a local wall-clock time occurs in `tz` (DST gaps resolve forward). */
export function zonedTimeToUtc(
  local: { year: number; month: number; day: number; hour?: number; minute?: number; second?: number },
  tz: string,
): number {
  const guess = Date.UTC(local.year, local.month - 1, local.day, local.hour ?? 0, local.minute ?? 0, local.second ?? 0);
  let ms = guess - zoneOffsetMs(guess, tz);
  // A second pass settles instants near a DST change.
  ms = guess - zoneOffsetMs(ms, tz);
  return ms;
}

/** Start of the local day containing `ms`. */
export function startOfLocalDay(ms: number, tz: string): number {
  const p = localParts(ms, tz);
  return zonedTimeToUtc({ year: p.year, month: p.month, day: p.day }, tz);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Earliest and latest instants PIE accepts as real event times: 1990-01-01 to 2100-01-01. */
export const PLAUSIBLE_MIN_MS = Date.UTC(1990, 0, 1);
export const PLAUSIBLE_MAX_MS = Date.UTC(2100, 0, 1);

export function isPlausibleTime(ms: number | null | undefined): ms is number {
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= PLAUSIBLE_MIN_MS && ms < PLAUSIBLE_MAX_MS;
}

/** Unix seconds (possibly fractional, as in ChatGPT exports) to epoch ms; null when missing or not finite. */
export function fromUnixSeconds(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return Math.round(value * 1000);
}

export interface LocalDateTime {
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

/**
 * Parse a date given by a person on the command line: ISO date or date-time ("2024-03-15", "2024-03-15T14:00",
 * "2024-03-15T14:00:00Z"). A date without a zone is read in `tz`.
 */
export function parseDateArgument(text: string, tz: string): number {
  const ms = parseIsoTime(text, tz);
  if (ms === null) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `"${text}" is not a date PIE understands; use YYYY-MM-DD or an ISO date-time.`,
    );
  }
  return ms;
}

export function isoString(ms: number): string {
  return new Date(ms).toISOString();
}

/** A time for a message about bad input: ISO when a Date can hold it, else the raw number (never throws). */
export function describeInstant(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? isoString(ms) : `${ms} ms since 1970`;
}

/** The UTC calendar date of a time, YYYY-MM-DD (report and prompt text). */
export function utcDate(ms: number): string {
  return isoString(ms).slice(0, 10);
}

export { DAY_MS };

/** English month names, January first (index = month − 1). */
export const MONTH_NAMES: readonly string[] = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
