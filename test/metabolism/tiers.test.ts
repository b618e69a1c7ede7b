import { describe, expect, it } from 'vitest';
import { PAPER_TIERS, recencyDays, tierFor, DAY_MS } from '../../src/metabolism/tiers.js';

describe('tierFor (paper thresholds)', () => {
  it.each([
    // importance, days since last reference, expected
    [0.9, 400, 'active'], // important: active whatever its age
    [0.31, 1000, 'active'],
    [0.05, 10, 'active'], // recent: active whatever its importance
    [0.05, 89, 'active'],
    [0.3, 90, 'summarized'], // 0.3 is inside [0.1, 0.3]
    [0.2, 120, 'summarized'],
    [0.1, 500, 'summarized'], // 0.1 is not below 0.1
    [0.05, 150, 'summarized'], // below 0.1 but not yet 180 days: the gap in the paper's table
    [0.05, 180, 'summarized'], // "over 180 days"
    [0.099, 181, 'archived'],
    [0, 10_000, 'archived'],
  ] as const)('I=%s, r=%s days → %s', (importance, days, expected) => {
    expect(tierFor({ importance, recencyDays: days, type: 'project', protected: false })).toBe(expected);
  });

  it('protected entities and periods stay active', () => {
    expect(tierFor({ importance: 0, recencyDays: 999, type: 'tool', protected: true })).toBe('active');
    expect(tierFor({ importance: 0, recencyDays: 999, type: 'period', protected: false })).toBe('active');
  });

  it('takes other thresholds', () => {
    const strict = { ...PAPER_TIERS, summarizeAfterDays: 10, archiveAfterDays: 20, archiveImportance: 0.2 };
    expect(tierFor({ importance: 0.15, recencyDays: 21, type: 'tool', protected: false }, strict)).toBe('archived');
    expect(tierFor({ importance: 0.15, recencyDays: 15, type: 'tool', protected: false }, strict)).toBe('summarized');
  });

  it('recency is in days and never negative', () => {
    expect(recencyDays(0, 3 * DAY_MS)).toBe(3);
    expect(recencyDays(5 * DAY_MS, 0)).toBe(0);
  });
});
