import { describe, expect, it } from 'vitest';
import { capIssues } from '../../src/metabolism/issues.js';
import type { StateValue, Transition } from '../../src/domain/world.js';
import {
  judgeContradiction,
  resolutionSummary,
  verdictReason,
  type SettledVerdict,
} from '../../src/metabolism/contradictions.js';

const DAY = 86_400_000;
const T = Date.UTC(2025, 0, 1);

function tr(
  id: string,
  day: number,
  kind: Transition['kind'],
  to: Record<string, StateValue>,
  from: Record<string, StateValue> | null = null,
): Transition {
  return {
    id,
    entityId: 'e1',
    kind,
    fromState: from,
    toState: to,
    summary: `${kind} ${id}`,
    eventTime: T + day * DAY,
    recordedAt: T,
    confidence: 0.9,
    episodeId: null,
    batchId: null,
    resolvedBy: null,
  };
}

const created = tr('t0', 0, 'creation', { diet: 'vegetarian', city: 'Boston' });
const contradiction = tr('c1', 10, 'contradiction', { diet: 'eats meat' }, { diet: 'vegetarian' });

function judge(later: Transition[], current: Record<string, StateValue>, refs: number[], nowDay: number) {
  return judgeContradiction({
    contradiction,
    history: [created, contradiction, ...later],
    current: new Map(Object.entries(current)),
    referenceTimes: refs.map((d) => T + d * DAY),
    now: T + nowDay * DAY,
  });
}

describe('judgeContradiction (phase 9 rules, 30 days by default)', () => {
  it.each([
    // later changes, current state, reference days, now (day), expected verdict
    [
      're-affirmed by a later change',
      [tr('u1', 20, 'update', { diet: 'Eats meat' })],
      { diet: 'eats meat' },
      [],
      21,
      { kind: 'reaffirmed', at: T + 20 * DAY },
    ],
    [
      'moved on to a third value',
      [tr('u1', 15, 'update', { diet: 'pescatarian' })],
      { diet: 'pescatarian' },
      [],
      16,
      { kind: 'moved-on', value: 'pescatarian' },
    ],
    [
      'stood 30 days while referenced',
      [],
      { diet: 'eats meat' },
      [5, 12, 40],
      40,
      { kind: 'stood', days: 30, references: 2 },
    ],
    [
      '29 days is too soon',
      [],
      { diet: 'eats meat' },
      [12, 20],
      39,
      { kind: 'undecided', why: 'only 29 of 30 days since' },
    ],
    [
      'not referenced since',
      [],
      { diet: 'eats meat' },
      [2, 10],
      400,
      { kind: 'undecided', why: 'not referenced since' },
    ],
    [
      'references after now do not count',
      [],
      { diet: 'eats meat' },
      [500],
      400,
      { kind: 'undecided', why: 'not referenced since' },
    ],
    [
      'flipped back',
      [tr('u1', 20, 'update', { diet: 'vegetarian' })],
      { diet: 'vegetarian' },
      [25],
      400,
      { kind: 'flip-flop', values: ['vegetarian', 'eats meat', 'vegetarian'] },
    ],
    [
      'flipped back and forth again',
      [tr('u1', 20, 'contradiction', { diet: 'vegetarian' }), tr('u2', 30, 'update', { diet: 'eats meat' })],
      { diet: 'eats meat' },
      [35],
      400,
      { kind: 'flip-flop' },
    ],
    [
      'other attributes do not count',
      [tr('u1', 20, 'update', { city: 'Denver' })],
      { diet: 'eats meat' },
      [],
      21,
      { kind: 'undecided' },
    ],
    [
      'a current fact with the old value (no transition) is a flip-flop',
      [],
      { diet: 'vegetarian' },
      [20],
      400,
      { kind: 'flip-flop' },
    ],
  ] as const)('%s', (_name, later, current, refs, now, expected) => {
    expect(judge([...later], current, [...refs], now)).toMatchObject({ attribute: 'diet', ...expected });
  });

  it('ignores changes recorded after now, and resolutions and summaries', () => {
    const future = tr('u9', 90, 'update', { diet: 'vegan' });
    const summary = tr('s1', 20, 'summary', { diet: 'vegan' });
    expect(judge([summary, future], { diet: 'eats meat' }, [20], 45)).toEqual({
      kind: 'stood',
      attribute: 'diet',
      days: 35,
      references: 1,
    });
  });

  it('takes another standing period', () => {
    const v = judgeContradiction({
      contradiction,
      history: [created, contradiction],
      current: new Map([['diet', 'eats meat']]),
      referenceTimes: [T + 12 * DAY],
      now: T + 17 * DAY,
      rules: { standDays: 7 },
    });
    expect(v).toEqual({ kind: 'stood', attribute: 'diet', days: 7, references: 1 });
  });

  it('writes what superseded what and why', () => {
    const v: SettledVerdict = { kind: 'stood', attribute: 'diet', days: 45, references: 3 };
    expect(resolutionSummary(contradiction, 'diet', verdictReason(v))).toBe(
      '"eats meat" superseded "vegetarian" (diet), held since 2025-01-11: unchallenged for 45 days, referenced 3 times since',
    );
    expect(verdictReason({ kind: 'moved-on', attribute: 'diet', at: T + 15 * DAY, value: 'vegan' })).toBe(
      'the older value never came back (changed to "vegan" on 2025-01-16)',
    );
  });
});

describe('capIssues', () => {
  it('lists at most 20 and counts the rest', () => {
    const many = Array.from({ length: 25 }, (_, i) => `issue ${i}`);
    expect(capIssues(many)).toEqual([...many.slice(0, 20), '… and 5 more']);
    expect(capIssues(many.slice(0, 20))).toEqual(many.slice(0, 20));
  });
});
