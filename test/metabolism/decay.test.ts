import { describe, expect, it } from 'vitest';
import { decayedConfidence, DEFAULT_DECAY, weeksToCharge } from '../../src/metabolism/decay.js';

const WEEK = 7 * 86_400_000;

describe('decayedConfidence (strength-aware)', () => {
  it.each([
    // confidence, importance, recencyDays, weeks, expected
    [0.8, 0.1, 100, 1, 0.72], // neglected: × 0.90 per week
    [0.8, 0.1, 100, 2, 0.648],
    [0.8, 0.5, 100, 1, 0.784], // important: × 0.98
    [0.8, 0.1, 10, 1, 0.784], // recently seen: × 0.98
    [0.8, 0.1, 100, 52, 0.3], // stops at the floor
    [0.3, 0.1, 100, 5, null], // at the floor: untouched
    [1, 0.1, 100, 5, null], // certain: never decayed
    [0.8, 0.1, 100, 0, null], // nothing to charge
    [0.8, 0.5, 100, 0.01, null], // rounds to the same value
  ] as const)('c=%s I=%s r=%s weeks=%s → %s', (confidence, importance, recencyDays, weeks, expected) => {
    expect(decayedConfidence({ confidence, importance, recencyDays, weeks })).toBe(expected);
  });

  it('takes other rules', () => {
    expect(
      decayedConfidence(
        { confidence: 0.8, importance: 0, recencyDays: 99, weeks: 1 },
        { ...DEFAULT_DECAY, weakFactor: 0.5 },
      ),
    ).toBe(0.4);
  });
});

describe('weeksToCharge', () => {
  it.each([
    [{ now: 10 * WEEK, lastDecayAt: null, lastSeen: 4 * WEEK }, 6],
    [{ now: 10 * WEEK, lastDecayAt: 8 * WEEK, lastSeen: 4 * WEEK }, 2], // charged since the last decay only
    [{ now: 10 * WEEK, lastDecayAt: 2 * WEEK, lastSeen: 9 * WEEK }, 1], // reinforced since
    [{ now: 10 * WEEK, lastDecayAt: null, lastSeen: 11 * WEEK }, 0],
  ])('%j → %s', (input, expected) => {
    expect(weeksToCharge(input)).toBeCloseTo(expected, 9);
  });
});
