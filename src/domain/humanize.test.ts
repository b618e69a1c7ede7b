import { describe, expect, it } from 'vitest';
import { calendarDays, humanizeDuration, monthsBetween, relativeTime } from './humanize.js';

const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;

describe('humanizeDuration', () => {
  it.each([
    [10_000, 'less than a minute'],
    [MIN, '1 minute'],
    [5 * MIN, '5 minutes'],
    [3 * H, '3 hours'],
    [D, '1 day'],
    [2 * D, '2 days'],
    [13 * D, '13 days'],
    [21 * D, '3 weeks'],
    [45 * D, '6 weeks'],
    [70 * D, 'about 2 months'],
    [487 * D, 'about 16 months'],
    [670 * D, 'about 22 months'],
    [800 * D, 'about 2 years'],
    [1000 * D, 'about 2.5 years'],
    [-21 * D, '3 weeks'],
  ])('%d ms → %s', (ms, text) => expect(humanizeDuration(ms)).toBe(text));
});

describe('relativeTime', () => {
  const now = Date.UTC(2025, 5, 1);
  it.each([
    [now - 3 * H, 'today'],
    [now - 21 * D, '3 weeks ago'],
    [now + 2 * D, 'in 2 days'],
  ])('%d → %s', (at, text) => expect(relativeTime({ at, now })).toBe(text));

  it('counts calendar days in the time zone, so one date has one count whatever its hour', () => {
    const may5 = Date.UTC(2023, 4, 5, 0, 0);
    // 21 April 10:27 and 23:50 are both 14 days before 5 May; without a zone the morning rounds to 14, the evening to 13.
    expect(relativeTime({ at: Date.UTC(2023, 3, 21, 10, 27), now: may5, tz: 'UTC' })).toBe('14 days ago, 2 weeks');
    expect(relativeTime({ at: Date.UTC(2023, 3, 21, 23, 50), now: may5, tz: 'UTC' })).toBe('14 days ago, 2 weeks');
    expect(relativeTime({ at: Date.UTC(2023, 3, 21, 23, 50), now: may5 })).toBe('13 days ago');
    // Late on 4 May in UTC is already 5 May in Tokyo: the same day there.
    expect(relativeTime({ at: Date.UTC(2023, 4, 4, 20), now: may5, tz: 'Asia/Tokyo' })).toBe('today');
    expect(relativeTime({ at: Date.UTC(2023, 4, 4, 20), now: may5, tz: 'UTC' })).toBe('1 day ago');
  });

  it('gives exact days up to two months, then rounded months', () => {
    const now = Date.UTC(2025, 5, 1, 12);
    expect(relativeTime({ at: now - 21 * D, now, tz: 'UTC' })).toBe('21 days ago, 3 weeks');
    expect(relativeTime({ at: now - 60 * D, now, tz: 'UTC' })).toBe('60 days ago, about 9 weeks');
    expect(relativeTime({ at: now - 61 * D, now, tz: 'UTC' })).toBe('about 2 months ago');
    expect(relativeTime({ at: now + 3 * D, now, tz: 'UTC' })).toBe('in 3 days');
    expect(calendarDays(now - 3 * H, now, 'UTC')).toBe(0);
  });
});

describe('monthsBetween', () => {
  it('is symmetric and fractional', () => {
    expect(monthsBetween(0, 365.25 * D)).toBeCloseTo(12, 2);
    expect(monthsBetween(365.25 * D, 0)).toBeCloseTo(12, 2);
  });
});
