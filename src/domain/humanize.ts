/** Durations and relative times in words a person (or an LLM) reads naturally. Pure functions. */

import { localParts } from './time.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30.44 * DAY;
const YEAR = 365.25 * DAY;

/** "1 change", "3 changes" (`many` for irregular plurals). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const unit = (n: number, word: string): string => plural(n, word);

/**
 * "just now", "5 minutes", "3 hours", "2 days", "3 weeks", "about 4 months", "about 16 months", "about 2 years".
 * Months are used up to two years so that velocity and age line up with the spec's examples ("about 22 months").
 */
export function humanizeDuration(ms: number): string {
  const d = Math.abs(ms);
  if (d < MINUTE) return 'less than a minute';
  if (d < HOUR) return unit(Math.round(d / MINUTE), 'minute');
  if (d < DAY) return unit(Math.round(d / HOUR), 'hour');
  if (d < 2 * WEEK) return unit(Math.round(d / DAY), 'day');
  if (d < 2 * MONTH) return unit(Math.round(d / WEEK), 'week');
  if (d < 24 * MONTH) {
    const months = Math.round(d / MONTH);
    return `about ${unit(months, 'month')}`;
  }
  const years = d / YEAR;
  const half = Math.round(years * 2) / 2;
  return Number.isInteger(half) ? `about ${unit(half, 'year')}` : `about ${half} years`;
}

/**
 * "3 days ago", "20 days ago, about 3 weeks", "in 2 days", "today", "about 5 months ago". With a time zone, up to two
 * months are whole calendar days there (an evening on 21 April is 14 days before any time on 5 May, as a person
 * counts; exact, so "how many days ago" needs no date arithmetic), with the weeks from 14 days; without one, within
 * a day either way is "today" and spans are rounded.
 */
export function relativeTime(input: { at: number; now: number; tz?: string }): string {
  const delta = input.now - input.at;
  const days = input.tz === undefined ? null : calendarDays(input.at, input.now, input.tz);
  if (days === null || Math.abs(days) >= 61) {
    if (Math.abs(delta) < DAY) return 'today';
    return delta > 0 ? `${humanizeDuration(delta)} ago` : `in ${humanizeDuration(delta)}`;
  }
  if (days === 0) return 'today';
  const n = Math.abs(days);
  const span = unit(n, 'day');
  const said = days > 0 ? `${span} ago` : `in ${span}`;
  if (n < 14) return said;
  // The weeks people count in, beside the exact days.
  return `${said}, ${n % 7 === 0 ? '' : 'about '}${unit(Math.round(n / 7), 'week')}`;
}

/** Whole calendar days from `at`'s date to `now`'s date in `tz` (negative when `at` is later). */
export function calendarDays(at: number, now: number, tz: string): number {
  const date = (ms: number): number => {
    const p = localParts(ms, tz);
    return Date.UTC(p.year, p.month - 1, p.day);
  };
  return Math.round((date(now) - date(at)) / DAY);
}

/** Months between two instants (fractional, at least 0). */
export function monthsBetween(a: number, b: number): number {
  return Math.abs(b - a) / MONTH;
}
