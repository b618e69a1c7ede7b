import { describe, expect, it } from 'vitest';
import type { Period } from '../../domain/world.js';
import { findTimeRanges, matchPeriod } from './index.js';

const NOW = Date.parse('2025-11-01T12:00:00Z');
const at = (iso: string): number => Date.parse(iso);

const GAP: Period = {
  entityId: 'p-gap',
  name: 'gap semester in San Francisco',
  start: at('2024-01-08T08:00:00Z'),
  end: at('2024-05-20T07:00:00Z'),
};
const FRESHMAN: Period = {
  entityId: 'p-fresh',
  name: 'UMD freshman year',
  start: at('2021-08-25T04:00:00Z'),
  end: at('2022-05-20T04:00:00Z'),
};
const SOPHOMORE: Period = {
  entityId: 'p-soph',
  name: 'UMD sophomore year',
  start: at('2022-08-25T04:00:00Z'),
  end: at('2023-05-20T04:00:00Z'),
};
const BERLIN: Period = { entityId: 'p-berlin', name: 'Berlin job', start: at('2025-06-01T00:00:00Z'), end: null };
const NYC: Period = {
  entityId: 'p-nyc',
  name: 'NYC internship',
  start: at('2023-06-01T04:00:00Z'),
  end: at('2023-08-31T04:00:00Z'),
};
const PERIODS = [GAP, FRESHMAN, SOPHOMORE, BERLIN, NYC];

function all(question: string, periods: readonly Period[] = PERIODS): Array<[string, string, string, string, string?]> {
  return findTimeRanges({ text: question, now: NOW, tz: 'America/Los_Angeles', periods }).map((r) => {
    const row: [string, string, string, string, string?] = [
      r.text,
      r.kind,
      new Date(r.start).toISOString(),
      new Date(r.end).toISOString(),
    ];
    if (r.periodId !== undefined) row.push(r.periodId);
    return row;
  });
}

const iso = (ms: number): string => new Date(ms).toISOString();
const FLOOR = '1990-01-01T00:00:00.000Z';

describe('periods named in a question', () => {
  it.each<[string, Array<[string, string, string, string, string?]>]>([
    [
      'What did I learn during my SF gap semester?',
      [['during my SF gap semester', 'period', iso(GAP.start), iso(GAP.end ?? 0), 'p-gap']],
    ],
    [
      'my gap semester in San Francisco',
      [['gap semester in San Francisco', 'period', iso(GAP.start), iso(GAP.end ?? 0), 'p-gap']],
    ],
    [
      'the San Francisco gap semester',
      [['San Francisco gap semester', 'period', iso(GAP.start), iso(GAP.end ?? 0), 'p-gap']],
    ],
    // All three words, with a stop word between: the freshman year, not the sophomore year (2 of 3).
    [
      'my freshman year at UMD',
      [['freshman year at UMD', 'period', iso(FRESHMAN.start), iso(FRESHMAN.end ?? 0), 'p-fresh']],
    ],
    // 2 of 3 words is enough.
    ['sophomore year', [['sophomore year', 'period', iso(SOPHOMORE.start), iso(SOPHOMORE.end ?? 0), 'p-soph']]],
    // Up to two other words may sit inside the run.
    [
      'my freshman year of college at UMD',
      [['freshman year of college at UMD', 'period', iso(FRESHMAN.start), iso(FRESHMAN.end ?? 0), 'p-fresh']],
    ],
    // "New York" covers 3 of the 4 words of "NYC internship" (new york city internship).
    ['my internship in New York', [['internship in New York', 'period', iso(NYC.start), iso(NYC.end ?? 0), 'p-nyc']]],
    // An ongoing period ends at now.
    ['during the Berlin job', [['during the Berlin job', 'period', iso(BERLIN.start), iso(NOW), 'p-berlin']]],
    ['before my gap semester in SF', [['before my gap semester in SF', 'period', FLOOR, iso(GAP.start), 'p-gap']]],
    ['after the NYC internship', [['after the NYC internship', 'period', iso(NYC.end ?? 0), iso(NOW), 'p-nyc']]],
    // Ended after now would be empty: after an ongoing period is [now, now).
    ['after the Berlin job', [['after the Berlin job', 'period', iso(NOW), iso(NOW), 'p-berlin']]],
    [
      'between my freshman year at UMD and the SF gap semester',
      [['between my freshman year at UMD and the SF gap semester', 'explicit', iso(FRESHMAN.start), iso(GAP.end ?? 0)]],
    ],
    // One word of two is not enough.
    ['How was Berlin?', []],
    ['my gap year', []],
  ])('%s', (question, expected) => {
    expect(all(question)).toEqual(expected);
  });

  it('prefers a period over a season written with the same words', () => {
    const summer: Period = {
      entityId: 'p-s',
      name: 'Summer 2024',
      start: at('2024-05-15T00:00:00Z'),
      end: at('2024-08-20T00:00:00Z'),
    };
    expect(all('in summer 2024', [summer])).toEqual([
      ['summer 2024', 'period', '2024-05-15T00:00:00.000Z', '2024-08-20T00:00:00.000Z', 'p-s'],
    ]);
  });

  it('starts open ranges at the earliest period when it is older than 1990', () => {
    const childhood: Period = {
      entityId: 'p-c',
      name: 'childhood in Ohio',
      start: at('1985-04-01T00:00:00Z'),
      end: at('1999-01-01T00:00:00Z'),
    };
    expect(all('before 2024', [childhood])).toEqual([
      ['before 2024', 'year', '1985-04-01T00:00:00.000Z', '2024-01-01T08:00:00.000Z'],
    ]);
  });
});

describe('matchPeriod', () => {
  it.each<[string, string | null]>([
    ['Gap semester in San Francisco', 'p-gap'],
    ['  gap-semester, in san francisco ', 'p-gap'],
    ['SF gap semester', 'p-gap'],
    ['freshman year', 'p-fresh'],
    ['UMD sophomore yr', 'p-soph'],
    ['nyc internship', 'p-nyc'],
    ['New York internship', 'p-nyc'],
    ['Berlin jobb', 'p-berlin'],
    ['UMD', null],
    ['knowledge graphs', null],
    ['', null],
  ])('%s → %s', (name, id) => {
    expect(matchPeriod({ name, periods: PERIODS })?.entityId ?? null).toBe(id);
  });

  it('picks the most recent of equally good matches', () => {
    const older: Period = {
      entityId: 'old',
      name: 'Acme internship',
      start: at('2022-06-01T00:00:00Z'),
      end: at('2022-09-01T00:00:00Z'),
    };
    const newer: Period = {
      entityId: 'new',
      name: 'Acme internship',
      start: at('2023-06-01T00:00:00Z'),
      end: at('2023-09-01T00:00:00Z'),
    };
    expect(matchPeriod({ name: 'acme internship', periods: [older, newer] })?.entityId).toBe('new');
    expect(matchPeriod({ name: 'acme internship', periods: [newer, older] })?.entityId).toBe('new');
  });
});
