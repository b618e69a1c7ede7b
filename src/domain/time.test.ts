import { describe, expect, it } from 'vitest';
import {
  fromUnixSeconds,
  isPlausibleTime,
  localDayKey,
  localParts,
  parseDateArgument,
  startOfLocalDay,
  zonedTimeToUtc,
} from './time.js';

describe('localDayKey', () => {
  it.each([
    // 2024-03-15T23:30Z is already the 16th in Berlin (UTC+1) but still the 15th in New York (UTC-4).
    [Date.UTC(2024, 2, 15, 23, 30), 'UTC', '2024-03-15'],
    [Date.UTC(2024, 2, 15, 23, 30), 'Europe/Berlin', '2024-03-16'],
    [Date.UTC(2024, 2, 16, 3, 30), 'America/New_York', '2024-03-15'],
    [Date.UTC(2024, 11, 31, 23, 59), 'Asia/Tokyo', '2025-01-01'],
  ])('%s in %s is %s', (ms, tz, day) => {
    expect(localDayKey(ms, tz)).toBe(day);
  });
});

describe('zonedTimeToUtc', () => {
  it.each([
    [{ year: 2024, month: 7, day: 1, hour: 12 }, 'Europe/Berlin', Date.UTC(2024, 6, 1, 10)],
    [{ year: 2024, month: 1, day: 1, hour: 12 }, 'Europe/Berlin', Date.UTC(2024, 0, 1, 11)],
    [{ year: 2024, month: 3, day: 10, hour: 12 }, 'America/New_York', Date.UTC(2024, 2, 10, 16)],
    [{ year: 2023, month: 5, day: 8, hour: 13, minute: 56 }, 'UTC', Date.UTC(2023, 4, 8, 13, 56)],
  ])('%o in %s', (local, tz, expected) => {
    expect(zonedTimeToUtc(local, tz)).toBe(expected);
  });

  it('start of a local day across a DST change', () => {
    // 2024-03-31 is the day Berlin switches to summer time; the day starts at 00:00 CET = 23:00Z the day before.
    expect(startOfLocalDay(Date.UTC(2024, 2, 31, 12), 'Europe/Berlin')).toBe(Date.UTC(2024, 2, 30, 23));
  });
});

describe('parseDateArgument', () => {
  it('reads dates and date-times in the given zone', () => {
    expect(parseDateArgument('2024-03-15', 'UTC')).toBe(Date.UTC(2024, 2, 15));
    expect(parseDateArgument('2024-03-15T14:00', 'Europe/Berlin')).toBe(Date.UTC(2024, 2, 15, 13));
    expect(parseDateArgument('2024-03-15T14:00:00Z', 'Europe/Berlin')).toBe(Date.UTC(2024, 2, 15, 14));
  });

  it.each(['yesterday', '2024-13-01', '15/03/2024', ''])('rejects %j with a clear sentence', (text) => {
    expect(() => parseDateArgument(text, 'UTC')).toThrow(/date/);
  });
});

describe('plausibility and unix seconds', () => {
  it('accepts 1990..2100 only', () => {
    expect(isPlausibleTime(Date.UTC(2024, 0, 1))).toBe(true);
    expect(isPlausibleTime(0)).toBe(false);
    expect(isPlausibleTime(Date.UTC(2150, 0, 1))).toBe(false);
    expect(isPlausibleTime(Number.NaN)).toBe(false);
    expect(isPlausibleTime(null)).toBe(false);
  });

  it('converts fractional unix seconds to milliseconds', () => {
    expect(fromUnixSeconds(1700000000.1234)).toBe(1700000000123);
    expect(fromUnixSeconds('1700000000')).toBeNull();
    expect(fromUnixSeconds(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe('localParts in UTC', () => {
  it('reads the same numbers from the Date as the zone formatter does (Etc/UTC takes the formatter)', () => {
    const instants = [
      0,
      -1,
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      Date.UTC(2024, 1, 29, 12, 30, 15),
      Date.UTC(2023, 11, 31, 23, 59, 59, 500),
      Date.UTC(2100, 0, 1),
      Date.UTC(1, 0, 1),
      1_700_000_000_123.75,
    ];
    for (const ms of instants) expect(localParts(ms, 'UTC')).toEqual(localParts(ms, 'Etc/UTC'));
  });
});
