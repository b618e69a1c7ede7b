/**
 * Calendar arithmetic in an IANA zone, built on src/domain/time.ts. Every boundary is local midnight in `tz`;
 * month and day overflow (month 13, day 0) is normalized the way Date.UTC does it.
 */
import { localParts, zonedTimeToUtc } from '../../domain/time.js';

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export interface Span {
  start: number;
  end: number;
}

/** Overflowing fields roll over: (2024, 13, 1) → 2025-01-01, (2024, 3, 0) → 2024-02-29. */
export function normalizeDate(year: number, month: number, day: number): LocalDate {
  const d = new Date(Date.UTC(year, month - 1, day));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Local midnight of a (possibly overflowing) calendar date. */
export function dayStart(year: number, month: number, day: number, tz: string): number {
  return zonedTimeToUtc(normalizeDate(year, month, day), tz);
}

export function localDate(ms: number, tz: string): LocalDate {
  const p = localParts(ms, tz);
  return { year: p.year, month: p.month, day: p.day };
}

/** ISO weekday of a calendar date: Monday 0 … Sunday 6. */
export function weekdayOf(date: LocalDate): number {
  return (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7;
}

export function daySpan(year: number, month: number, day: number, tz: string, days = 1): Span {
  return { start: dayStart(year, month, day, tz), end: dayStart(year, month, day + days, tz) };
}

export function monthSpan(year: number, month: number, tz: string, months = 1): Span {
  return { start: dayStart(year, month, 1, tz), end: dayStart(year, month + months, 1, tz) };
}

export function yearSpan(year: number, tz: string, years = 1): Span {
  return { start: dayStart(year, 1, 1, tz), end: dayStart(year + years, 1, 1, tz) };
}

/** The local day containing `ms`, shifted by `offset` days. */
export function dayOf(ms: number, tz: string, offset = 0): Span {
  const d = localDate(ms, tz);
  return daySpan(d.year, d.month, d.day + offset, tz);
}

/** The Monday-to-Sunday week containing `ms`, shifted by `offset` weeks (ISO weeks start on Monday). */
export function weekOf(ms: number, tz: string, offset = 0): Span {
  const d = localDate(ms, tz);
  const monday = d.day - weekdayOf(d) + offset * 7;
  return daySpan(d.year, d.month, monday, tz, 7);
}

export function monthOf(ms: number, tz: string, offset = 0): Span {
  const d = localDate(ms, tz);
  return monthSpan(d.year, d.month + offset, tz);
}

export function yearOf(ms: number, tz: string, offset = 0): Span {
  return yearSpan(localDate(ms, tz).year + offset, tz);
}

export type Unit = 'day' | 'week' | 'month' | 'year';

export function unitOf(unit: Unit, ms: number, tz: string, offset = 0): Span {
  switch (unit) {
    case 'day':
      return dayOf(ms, tz, offset);
    case 'week':
      return weekOf(ms, tz, offset);
    case 'month':
      return monthOf(ms, tz, offset);
    case 'year':
      return yearOf(ms, tz, offset);
  }
}

/**
 * The same local wall-clock time `amount` units earlier (negative) or later. Months and years clamp the day
 * (31 March − 1 month = 28/29 February) so the result never spills into the next month.
 */
export function shiftLocal(ms: number, tz: string, unit: Unit, amount: number): number {
  const p = localParts(ms, tz);
  const time = { hour: p.hour, minute: p.minute, second: p.second };
  const subSecond = ms - Math.floor(ms / 1000) * 1000;
  if (unit === 'day' || unit === 'week') {
    const d = normalizeDate(p.year, p.month, p.day + amount * (unit === 'week' ? 7 : 1));
    return zonedTimeToUtc({ ...d, ...time }, tz) + subSecond;
  }
  const months = p.month - 1 + amount * (unit === 'year' ? 12 : 1);
  const year = p.year + Math.floor(months / 12);
  const month = (((months % 12) + 12) % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return zonedTimeToUtc({ year, month, day: Math.min(p.day, lastDay), ...time }, tz) + subSecond;
}

/**
 * The latest year whose `month` (and `day`) has begun by `now`, so "March" asked in November 2025 is March 2025
 * and asked in February 2025 is March 2024.
 */
export function latestYearStarted(month: number, day: number, now: number, tz: string): number {
  const year = localDate(now, tz).year;
  return dayStart(year, month, day, tz) <= now ? year : year - 1;
}
