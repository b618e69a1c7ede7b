import { describe, expect, it } from 'vitest';
import { refinePeriod } from '../../src/metabolism/periods.js';

const DAY = 86_400_000;
const S = Date.UTC(2024, 8, 1);
const E = Date.UTC(2025, 4, 31);
const period = { entityId: 'p1', name: 'junior year', start: S, end: E as number | null };

describe('refinePeriod (boundaries follow the evidence)', () => {
  it.each([
    // evidence (days from S), end open?, expected [start, end] in days from S, or null for no change
    ['no evidence: unchanged', [], false, null],
    ['evidence inside, touching both ends: unchanged', [0, 100, 272], false, null],
    ['within a day of the boundaries: unchanged (slack)', [0.5, 271.5], false, null],
    ['evidence before the start widens it', [-20, 100, 272], false, [-20, 272]],
    ['evidence after the end widens it', [0, 10, 300], false, [0, 300]],
    ['one end widens while the other narrows', [-20, 100], false, [-20, 100]],
    ['a single piece inside cannot narrow', [100], false, null],
    ['one piece before still widens', [-3], false, [-3, 272]],
    ['two pieces well inside narrow both ends', [30, 200], false, [30, 200]],
    ['an open end stays open', [30, 400], true, [30, null]],
  ] as const)('%s', (_name, evidence, openEnd, expected) => {
    const p = { ...period, end: openEnd ? null : E };
    const r = refinePeriod({ period: p, evidence: evidence.map((d) => S + d * DAY) });
    if (expected === null) {
      expect(r).toBeNull();
      return;
    }
    expect(r?.to).toEqual({ start: S + expected[0] * DAY, end: expected[1] === null ? null : S + expected[1] * DAY });
    expect(r?.from).toEqual({ start: p.start, end: p.end });
    expect(r?.evidence).toBe(evidence.length);
  });

  it.each([
    // happened, mentioned (days from S), expected [start, end] in days from S, or null for no change
    ['talk before the start (plans) and after the end (memories) widens nothing', [0, 272], [-40, 320], null],
    ['talk alone widens nothing', [], [-40, 320], null],
    ['talk near a boundary keeps it from narrowing', [100, 150], [0, 272], null],
    ['talk counts toward narrowing, to the earliest and latest of both', [100], [50, 200], [50, 200]],
    ['what happened before the start still widens it, talk or not', [-20, 100], [-60, 272], [-20, 272]],
  ] as const)('%s', (_name, happened, mentioned, expected) => {
    const r = refinePeriod({
      period,
      evidence: happened.map((d) => S + d * DAY),
      mentions: mentioned.map((d) => S + d * DAY),
    });
    expect(r === null ? null : [(r.to.start - S) / DAY, ((r.to.end ?? 0) - S) / DAY]).toEqual(expected);
  });

  it('takes other rules', () => {
    const r = refinePeriod({ period, evidence: [S + 30 * DAY], rules: { slackDays: 7, minEvidence: 1 } });
    expect(r?.to).toEqual({ start: S + 30 * DAY, end: S + 30 * DAY });
    expect(
      refinePeriod({ period, evidence: [S + 5 * DAY, E - 5 * DAY], rules: { slackDays: 7, minEvidence: 1 } }),
    ).toBeNull();
  });
});
