import { describe, expect, it } from 'vitest';
import { humanizeDuration, monthsBetween, relativeTime } from './humanize.js';

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
});

describe('monthsBetween', () => {
  it('is symmetric and fractional', () => {
    expect(monthsBetween(0, 365.25 * D)).toBeCloseTo(12, 2);
    expect(monthsBetween(365.25 * D, 0)).toBeCloseTo(12, 2);
  });
});
