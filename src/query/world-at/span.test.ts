import { describe, expect, it } from 'vitest';
import { isPieError } from '../../domain/errors.js';
import type { Period } from '../../domain/world.js';
import { closestPeriods, resolvePeriod, resolveSpan, type Span } from './span.js';

const T = (iso: string): number => Date.parse(iso);
const NOW = T('2025-11-01T00:00:00Z');
const PERIODS: Period[] = [
  {
    entityId: 'p-junior',
    name: 'junior year at UMD',
    start: T('2024-09-10T14:00:00Z'),
    end: T('2025-05-28T14:00:00Z'),
  },
  {
    entityId: 'p-gap',
    name: 'gap semester in San Francisco',
    start: T('2025-08-15T14:00:00Z'),
    end: T('2025-10-02T14:00:00Z'),
  },
  { entityId: 'p-intern', name: 'internship at Acme', start: T('2025-10-15T09:00:00Z'), end: null },
];

const resolve = (text: string, tz = 'UTC'): Span => resolveSpan({ text, periods: PERIODS, now: NOW, tz });

function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (isPieError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a PieError');
}

describe('resolveSpan', () => {
  it.each([
    ['junior year at UMD', 'p-junior', T('2024-09-10T14:00:00Z'), T('2025-05-28T14:00:00Z')],
    ['SF gap semester', 'p-gap', T('2025-08-15T14:00:00Z'), T('2025-10-02T14:00:00Z')],
    ['  Junior Year  ', 'p-junior', T('2024-09-10T14:00:00Z'), T('2025-05-28T14:00:00Z')],
  ])('"%s" is the period %s, read at its end', (text, periodId, start, end) => {
    expect(resolve(text)).toEqual({
      kind: 'period',
      start,
      end: end + 1,
      at: end,
      label: PERIODS.find((p) => p.entityId === periodId)?.name,
      periodId,
    });
  });

  it('an ongoing period runs to now and is read now', () => {
    expect(resolve('the Acme internship')).toEqual({
      kind: 'period',
      start: T('2025-10-15T09:00:00Z'),
      end: NOW + 1,
      at: NOW,
      label: 'internship at Acme',
      periodId: 'p-intern',
      ongoing: true,
    });
  });

  it.each([
    ['2024-05-01', 'UTC', T('2024-05-01T00:00:00Z'), T('2024-05-02T00:00:00Z')],
    ['2024-05-01', 'America/New_York', T('2024-05-01T04:00:00Z'), T('2024-05-02T04:00:00Z')],
    ['2024-03-10', 'America/New_York', T('2024-03-10T05:00:00Z'), T('2024-03-11T04:00:00Z')],
  ])('the date %s in %s is that local day, read at its last moment', (text, tz, start, end) => {
    expect(resolve(text, tz)).toEqual({ kind: 'date', start, end, at: end - 1, label: text });
  });

  it('a date-time is that instant', () => {
    const at = T('2024-05-01T14:30:00Z');
    expect(resolve('2024-05-01T14:30:00Z')).toEqual({
      kind: 'date',
      start: at,
      end: at + 1,
      at,
      label: '2024-05-01T14:30:00Z',
    });
  });

  it.each([
    ['May 2025', T('2025-05-01T00:00:00Z'), T('2025-06-01T00:00:00Z'), T('2025-06-01T00:00:00Z') - 1],
    ['during summer 2025', T('2025-06-01T00:00:00Z'), T('2025-09-01T00:00:00Z'), T('2025-09-01T00:00:00Z') - 1],
    // Still under way: read now, not at the end of the year.
    ['this year', T('2025-01-01T00:00:00Z'), T('2026-01-01T00:00:00Z'), NOW],
  ])('the time expression "%s" is a range', (text, start, end, at) => {
    expect(resolve(text)).toMatchObject({ kind: 'range', start, end, at });
  });

  it('"now" is the present', () => {
    expect(resolve('now')).toEqual({ kind: 'now', start: NOW, end: NOW + 1, at: NOW, label: 'now' });
  });

  it('an unknown name is NOT_FOUND with the closest periods and a date to try instead', () => {
    expect(failure(() => resolve('gap year in Tokyo'))).toEqual({
      code: 'NOT_FOUND',
      message:
        'No period is called "gap year in Tokyo"; known periods: "gap semester in San Francisco", "junior year at UMD", "internship at Acme", or give a date like 2024-05-01.',
    });
    expect(failure(() => resolveSpan({ text: 'spring break', periods: [], now: NOW, tz: 'UTC' }))).toEqual({
      code: 'NOT_FOUND',
      message:
        'No period is called "spring break" and PIE knows no period with dates yet; give a date like 2024-05-01.',
    });
  });

  it('a word that is only part of the text does not make it a time ("spring break in Tokyo")', () => {
    expect(failure(() => resolve('spring cleaning of Tidepool')).code).toBe('NOT_FOUND');
  });

  it.each([['2024-13-45'], ['2024-02-30'], ['']])('"%s" is INVALID_ARGUMENT', (text) => {
    expect(failure(() => resolve(text)).code).toBe('INVALID_ARGUMENT');
  });
});

describe('resolvePeriod', () => {
  it('matches periods only, and points to --at for dates', () => {
    expect(resolvePeriod({ text: 'SF gap semester', periods: PERIODS, now: NOW }).periodId).toBe('p-gap');
    expect(failure(() => resolvePeriod({ text: '2024-05-01', periods: PERIODS, now: NOW })).message).toMatch(
      /^No period is called "2024-05-01"; known periods: .*, or use --at with a date like 2024-05-01\.$/,
    );
  });
});

describe('closestPeriods', () => {
  it('ranks by shared words, then similarity', () => {
    expect(closestPeriods({ text: 'junior semester', periods: PERIODS, limit: 2 })).toEqual([
      'junior year at UMD',
      'gap semester in San Francisco',
    ]);
  });
});
