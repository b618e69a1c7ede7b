import { describe, expect, it } from 'vitest';
import { findTimeRanges, type TimeRange } from './index.js';

/** Saturday 1 November 2025 (autumn), 12:00 UTC. */
const NOW = Date.parse('2025-11-01T12:00:00Z');
const MID_APRIL = Date.parse('2025-04-15T12:00:00Z');
const MID_JANUARY = Date.parse('2026-01-15T12:00:00Z');
/** Already 1 June (summer) in UTC, still 31 May 20:00 (spring) in Los Angeles. */
const EVE_OF_JUNE_LA = Date.parse('2025-06-01T03:00:00Z');
const LA = 'America/Los_Angeles';

type Row = [
  question: string,
  tz: string,
  now: number,
  text: string,
  kind: TimeRange['kind'],
  start: string,
  end: string,
];

function all(question: string, tz: string, now: number): Array<[string, TimeRange['kind'], string, string]> {
  return findTimeRanges({ text: question, now, tz, periods: [] }).map((r) => [
    r.text,
    r.kind,
    new Date(r.start).toISOString(),
    new Date(r.end).toISOString(),
  ]);
}

describe('seasons', () => {
  it.each<Row>([
    ['last spring', 'UTC', NOW, 'last spring', 'season', '2025-03-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z'],
    ['last spring', LA, NOW, 'last spring', 'season', '2025-03-01T08:00:00.000Z', '2025-06-01T07:00:00.000Z'],
    ['this summer', 'UTC', NOW, 'this summer', 'season', '2025-06-01T00:00:00.000Z', '2025-09-01T00:00:00.000Z'],
    ['this summer', LA, NOW, 'this summer', 'season', '2025-06-01T07:00:00.000Z', '2025-09-01T07:00:00.000Z'],
    // Autumn contains now.
    ['this fall', LA, NOW, 'this fall', 'season', '2025-09-01T07:00:00.000Z', '2025-12-01T08:00:00.000Z'],
    ['last autumn', 'UTC', NOW, 'last autumn', 'season', '2024-09-01T00:00:00.000Z', '2024-12-01T00:00:00.000Z'],
    // No winter contains 1 November: "this winter" is the latest begun one, the same as "last winter".
    ['this winter', 'UTC', NOW, 'this winter', 'season', '2024-12-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z'],
    ['last winter', 'UTC', NOW, 'last winter', 'season', '2024-12-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z'],
    ['next winter', 'UTC', NOW, 'next winter', 'season', '2025-12-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    [
      'the summer before last',
      'UTC',
      NOW,
      'the summer before last',
      'season',
      '2024-06-01T00:00:00.000Z',
      '2024-09-01T00:00:00.000Z',
    ],
    ['in summer 2024', 'UTC', NOW, 'summer 2024', 'season', '2024-06-01T00:00:00.000Z', '2024-09-01T00:00:00.000Z'],
    ['in summer 2024', LA, NOW, 'summer 2024', 'season', '2024-06-01T07:00:00.000Z', '2024-09-01T07:00:00.000Z'],
    [
      "the summer of '24",
      'UTC',
      NOW,
      "the summer of '24",
      'season',
      '2024-06-01T00:00:00.000Z',
      '2024-09-01T00:00:00.000Z',
    ],
    // A winter belongs to the year it starts in.
    ['winter 2023', 'UTC', NOW, 'winter 2023', 'season', '2023-12-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    ['winter 2023', LA, NOW, 'winter 2023', 'season', '2023-12-01T08:00:00.000Z', '2024-03-01T08:00:00.000Z'],
    ['winter 2023-24', 'UTC', NOW, 'winter 2023-24', 'season', '2023-12-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    [
      'summer last year',
      'UTC',
      NOW,
      'summer last year',
      'season',
      '2024-06-01T00:00:00.000Z',
      '2024-09-01T00:00:00.000Z',
    ],
    [
      "last year's spring",
      'UTC',
      NOW,
      "last year's spring",
      'season',
      '2024-03-01T00:00:00.000Z',
      '2024-06-01T00:00:00.000Z',
    ],
    ['in the summer', 'UTC', NOW, 'summer', 'season', '2025-06-01T00:00:00.000Z', '2025-09-01T00:00:00.000Z'],
    [
      'during the spring',
      'UTC',
      NOW,
      'during the spring',
      'season',
      '2025-03-01T00:00:00.000Z',
      '2025-06-01T00:00:00.000Z',
    ],
  ])('%s (%s)', (question, tz, now, text, kind, start, end) => {
    expect(all(question, tz, now)).toEqual([[text, kind, start, end]]);
  });

  it.each<Row>([
    ['last spring', 'UTC', MID_APRIL, 'last spring', 'season', '2024-03-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z'],
    ['this spring', 'UTC', MID_APRIL, 'this spring', 'season', '2025-03-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z'],
    // Summer 2025 has not begun in April: "this summer" falls back to the latest begun one.
    ['this summer', 'UTC', MID_APRIL, 'this summer', 'season', '2024-06-01T00:00:00.000Z', '2024-09-01T00:00:00.000Z'],
    ['next summer', 'UTC', MID_APRIL, 'next summer', 'season', '2025-06-01T00:00:00.000Z', '2025-09-01T00:00:00.000Z'],
    [
      'this winter',
      'UTC',
      MID_JANUARY,
      'this winter',
      'season',
      '2025-12-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ],
    [
      'last winter',
      'UTC',
      MID_JANUARY,
      'last winter',
      'season',
      '2024-12-01T00:00:00.000Z',
      '2025-03-01T00:00:00.000Z',
    ],
    [
      'this summer',
      'UTC',
      EVE_OF_JUNE_LA,
      'this summer',
      'season',
      '2025-06-01T00:00:00.000Z',
      '2025-09-01T00:00:00.000Z',
    ],
    [
      'this summer',
      LA,
      EVE_OF_JUNE_LA,
      'this summer',
      'season',
      '2024-06-01T07:00:00.000Z',
      '2024-09-01T07:00:00.000Z',
    ],
    [
      'last spring',
      'UTC',
      EVE_OF_JUNE_LA,
      'last spring',
      'season',
      '2025-03-01T00:00:00.000Z',
      '2025-06-01T00:00:00.000Z',
    ],
    [
      'last spring',
      LA,
      EVE_OF_JUNE_LA,
      'last spring',
      'season',
      '2024-03-01T08:00:00.000Z',
      '2024-06-01T07:00:00.000Z',
    ],
  ])('%s (%s, now %d)', (question, tz, now, text, kind, start, end) => {
    expect(all(question, tz, now)).toEqual([[text, kind, start, end]]);
  });
});

describe('parts of a year or month', () => {
  it.each<Row>([
    ['early 2024', 'UTC', NOW, 'early 2024', 'season', '2024-01-01T00:00:00.000Z', '2024-05-01T00:00:00.000Z'],
    ['early 2024', LA, NOW, 'early 2024', 'season', '2024-01-01T08:00:00.000Z', '2024-05-01T07:00:00.000Z'],
    ['mid 2024', 'UTC', NOW, 'mid 2024', 'season', '2024-05-01T00:00:00.000Z', '2024-09-01T00:00:00.000Z'],
    ['mid-2024', 'UTC', NOW, 'mid-2024', 'season', '2024-05-01T00:00:00.000Z', '2024-09-01T00:00:00.000Z'],
    ['late 2023', 'UTC', NOW, 'late 2023', 'season', '2023-09-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'],
    ['late 2023', LA, NOW, 'late 2023', 'season', '2023-09-01T07:00:00.000Z', '2024-01-01T08:00:00.000Z'],
    [
      'the end of 2023',
      'UTC',
      NOW,
      'the end of 2023',
      'season',
      '2023-09-01T00:00:00.000Z',
      '2024-01-01T00:00:00.000Z',
    ],
    [
      'early last year',
      'UTC',
      NOW,
      'early last year',
      'season',
      '2024-01-01T00:00:00.000Z',
      '2024-05-01T00:00:00.000Z',
    ],
    [
      'early March 2024',
      'UTC',
      NOW,
      'early March 2024',
      'month',
      '2024-03-01T00:00:00.000Z',
      '2024-03-11T00:00:00.000Z',
    ],
    ['mid March 2024', 'UTC', NOW, 'mid March 2024', 'month', '2024-03-11T00:00:00.000Z', '2024-03-21T00:00:00.000Z'],
    [
      'late February 2024',
      'UTC',
      NOW,
      'late February 2024',
      'month',
      '2024-02-21T00:00:00.000Z',
      '2024-03-01T00:00:00.000Z',
    ],
    ['late October', LA, NOW, 'late October', 'month', '2025-10-21T07:00:00.000Z', '2025-11-01T07:00:00.000Z'],
  ])('%s (%s)', (question, tz, now, text, kind, start, end) => {
    expect(all(question, tz, now)).toEqual([[text, kind, start, end]]);
  });
});

describe('season words that are not seasons', () => {
  it.each(['I fall asleep late', 'a hot spring nearby', 'spring cleaning tips', 'summer camp counselors'])(
    '%s',
    (q) => {
      expect(all(q, 'UTC', NOW)).toEqual([]);
    },
  );
});
