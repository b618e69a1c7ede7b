import { describe, expect, it } from 'vitest';
import { latestYearStarted, monthSpan, shiftLocal, weekOf, yearSpan, type Span, type Unit } from './calendar.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const span = (s: Span): [string, string] => [iso(s.start), iso(s.end)];

describe('shiftLocal', () => {
  it.each<[string, string, Unit, number, string]>([
    // Months clamp the day instead of spilling into the next month.
    ['2025-03-31T12:00:00Z', 'UTC', 'month', -1, '2025-02-28T12:00:00.000Z'],
    ['2024-03-31T12:00:00Z', 'UTC', 'month', -1, '2024-02-29T12:00:00.000Z'],
    ['2024-02-29T12:00:00Z', 'UTC', 'year', -1, '2023-02-28T12:00:00.000Z'],
    ['2025-01-15T12:00:00Z', 'UTC', 'month', -2, '2024-11-15T12:00:00.000Z'],
    // Same wall-clock time across the DST change (PST→PDT on 9 March 2025): the UTC hour moves.
    ['2025-03-12T12:00:00Z', 'America/Los_Angeles', 'week', -1, '2025-03-05T13:00:00.000Z'],
    ['2025-11-01T12:00:00Z', 'America/Los_Angeles', 'day', 10, '2025-11-11T13:00:00.000Z'],
  ])('%s in %s %s %d → %s', (from, tz, unit, amount, expected) => {
    expect(iso(shiftLocal(Date.parse(from), tz, unit, amount))).toBe(expected);
  });
});

describe('calendar spans', () => {
  it('weeks run Monday to Sunday in the zone', () => {
    // 2025-11-02T05:00Z is still Saturday 1 November in Los Angeles but already Sunday in UTC.
    expect(span(weekOf(Date.parse('2025-11-02T05:00:00Z'), 'UTC'))).toEqual([
      '2025-10-27T00:00:00.000Z',
      '2025-11-03T00:00:00.000Z',
    ]);
    // The Los Angeles week ends after the fall-back change, at 08:00Z instead of 07:00Z.
    expect(span(weekOf(Date.parse('2025-11-02T05:00:00Z'), 'America/Los_Angeles'))).toEqual([
      '2025-10-27T07:00:00.000Z',
      '2025-11-03T08:00:00.000Z',
    ]);
  });

  it('months and years overflow into the next year', () => {
    expect(span(monthSpan(2024, 12, 'UTC'))).toEqual(['2024-12-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z']);
    expect(span(monthSpan(2023, 12, 'UTC', 3))).toEqual(['2023-12-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z']);
    expect(span(yearSpan(2024, 'America/Los_Angeles'))).toEqual([
      '2024-01-01T08:00:00.000Z',
      '2025-01-01T08:00:00.000Z',
    ]);
  });

  it.each([
    [3, '2025-11-01T12:00:00Z', 'UTC', 2025],
    [12, '2025-11-01T12:00:00Z', 'UTC', 2024],
    [11, '2025-11-01T12:00:00Z', 'UTC', 2025],
    // 1 November 03:00Z is still 31 October in Los Angeles: November has not begun there.
    [11, '2025-11-01T03:00:00Z', 'America/Los_Angeles', 2024],
  ])('latest month %d begun by %s in %s is in %d', (month, now, tz, year) => {
    expect(latestYearStarted(month, 1, Date.parse(now), tz)).toBe(year);
  });
});
