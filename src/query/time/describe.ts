/**
 * Human labels for a found range: "spring 2025 (1 Mar – 31 May 2025)", "March 2024 (1 – 31 Mar 2024)",
 * "3 Mar 2024". Exact seasons, months and years are named by the calendar; anything else by the question's words.
 */
import { MONTH_NAMES } from '../../domain/time.js';
import { localDate, monthSpan, yearSpan } from './calendar.js';
import { seasonSpan } from './seasons.js';
import type { TimeRange } from './types.js';

const MONTH_ABBR = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH_NAME = MONTH_NAMES;

/** "1 Mar – 31 May 2025", "1 Dec 2024 – 28 Feb 2025", "3 Mar 2024"; the exclusive end is shown as its last day. */
export function formatSpan(start: number, end: number, tz: string): string {
  const a = localDate(start, tz);
  const b = localDate(Math.max(start, end - 1), tz);
  const day = (d: { day: number; month: number }): string => `${d.day} ${MONTH_ABBR[d.month - 1] ?? ''}`;
  if (a.year !== b.year) return `${day(a)} ${a.year} – ${day(b)} ${b.year}`;
  if (a.month !== b.month) return `${day(a)} – ${day(b)} ${b.year}`;
  if (a.day !== b.day) return `${a.day} – ${day(b)} ${b.year}`;
  return `${day(a)} ${a.year}`;
}

/** A calendar name when the range is exactly a season, a month or a year. */
function calendarName(range: TimeRange, tz: string): string | null {
  const { year, month } = localDate(range.start, tz);
  const same = (s: { start: number; end: number }): boolean => s.start === range.start && s.end === range.end;
  if (same(yearSpan(year, tz))) return String(year);
  if (same(monthSpan(year, month, tz))) return `${MONTH_NAME[month - 1] ?? ''} ${year}`;
  for (const season of ['spring', 'summer', 'autumn', 'winter']) {
    if (!same(seasonSpan(season, year, tz))) continue;
    return season === 'winter' ? `winter ${year}–${String(year + 1).slice(2)}` : `${season} ${year}`;
  }
  return null;
}

export function describeRange(range: TimeRange, tz: string): string {
  const span = formatSpan(range.start, range.end, tz);
  if (range.end <= range.start) return `${range.text} (empty)`;
  const name = calendarName(range, tz) ?? range.text;
  return name === span ? span : `${name} (${span})`;
}
