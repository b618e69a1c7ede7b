import { describe, expect, it } from 'vitest';
import { combinedScore, fuse, recencyWeight } from './fusion.js';
import { DEFAULT_SCORING, PRESETS } from './presets.js';
import type { LaneHit, LaneResult } from './types.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 10, 1);

function hit(id: string, importance = 0.5, time: number | null = NOW): LaneHit {
  return { ref: { kind: 'entity', id }, importance, time };
}

describe('recencyWeight', () => {
  it.each([
    [0, 1],
    [365, 0.5],
    [730, 0.25],
  ])('%i days old → %f', (days, expected) => {
    expect(recencyWeight({ time: NOW - days * DAY, now: NOW, halfLifeDays: 365 })).toBeCloseTo(expected, 6);
  });
  it('unknown time is neutral, future time is fresh', () => {
    expect(recencyWeight({ time: null, now: NOW, halfLifeDays: 365 })).toBe(0.5);
    expect(recencyWeight({ time: NOW + DAY, now: NOW, halfLifeDays: 365 })).toBe(1);
  });
});

describe('combinedScore', () => {
  it('weighs similarity, importance and recency 0.65 / 0.30 / 0.05', () => {
    expect(combinedScore({ similarity: 1, importance: 0.5, recency: 0.2, scoring: DEFAULT_SCORING })).toBeCloseTo(
      0.65 + 0.15 + 0.01,
      9,
    );
  });
  it('landmarks (importance ≥ 0.75) never lose recency', () => {
    const old = combinedScore({ similarity: 0.5, importance: 0.8, recency: 0.001, scoring: DEFAULT_SCORING });
    expect(old).toBeCloseTo(0.65 * 0.5 + 0.3 * 0.8 + 0.05, 9);
  });
});

describe('fuse (reciprocal-rank fusion, then re-scoring)', () => {
  const preset = { ...PRESETS.general, topK: 10 };
  it('an item found by two lanes outranks items found by one', () => {
    const lanes: LaneResult[] = [
      { lane: 'lexical', hits: [hit('a'), hit('b')] },
      { lane: 'temporal', hits: [hit('c'), hit('b')] },
    ];
    const ranked = fuse({ lanes, preset, now: NOW });
    expect(ranked.map((r) => r.ref)).toEqual([
      { kind: 'entity', id: 'b' },
      { kind: 'entity', id: 'a' },
      { kind: 'entity', id: 'c' },
    ]);
    expect(ranked[0]?.lanes).toEqual(['lexical', 'temporal']);
    const temporal = preset.lanes.temporal.weight;
    expect(ranked[0]?.rrf).toBeCloseTo(1 / 62 + temporal / 62, 12);
  });
  it('lane weights scale a lane’s contribution', () => {
    const lanes: LaneResult[] = [
      { lane: 'recent', hits: [hit('r')] },
      { lane: 'lexical', hits: [hit('l')] },
    ];
    const ranked = fuse({ lanes, preset, now: NOW });
    expect(ranked.map((r) => r.key)).toEqual(['entity:l', 'entity:r']);
    expect(ranked[1]?.rrf).toBeCloseTo(0.5 / 61, 12);
  });
  it('the recent lane is a safety net: it ranks what no other lane found, and adds nothing to what one did', () => {
    const lanes: LaneResult[] = [
      { lane: 'recent', hits: [hit('both'), hit('recent-only')] },
      { lane: 'lexical', hits: [hit('words'), hit('both')] },
    ];
    const ranked = fuse({ lanes, preset, now: NOW });
    expect(ranked.map((r) => r.key)).toEqual(['entity:words', 'entity:both', 'entity:recent-only']);
    expect(ranked[1]?.rrf).toBeCloseTo(1 / 62, 12);
    expect(ranked[1]?.lanes).toEqual(['recent', 'lexical']);
    expect(ranked[2]?.rrf).toBeCloseTo(0.5 / 62, 12);
  });
  it('importance can lift a lower-ranked item above a more similar but trivial one', () => {
    const lanes: LaneResult[] = [{ lane: 'lexical', hits: [hit('trivial', 0), hit('core', 1)] }];
    const ranked = fuse({ lanes, preset, now: NOW });
    expect(ranked.map((r) => r.key)).toEqual(['entity:core', 'entity:trivial']);
  });
  it('keeps topK, breaks ties by key, and keeps the first snippet', () => {
    const lanes: LaneResult[] = [
      { lane: 'lexical', hits: [{ ...hit('x'), snippet: 'first' }] },
      { lane: 'vector', hits: [{ ...hit('x'), snippet: 'second' }] },
    ];
    expect(fuse({ lanes, preset, now: NOW })[0]?.snippet).toBe('first');
    const many: LaneResult[] = [{ lane: 'lexical', hits: Array.from({ length: 30 }, (_, i) => hit(`e${i}`)) }];
    expect(fuse({ lanes: many, preset, now: NOW })).toHaveLength(10);
  });
  it('returns nothing for no hits', () => {
    expect(fuse({ lanes: [{ lane: 'lexical', hits: [] }], preset, now: NOW })).toEqual([]);
  });
});
