import { describe, expect, it } from 'vitest';
import type { Fact } from '../../domain/world.js';
import { DAY, T0, ops, plan } from './test-kit.js';

/**
 * An older conversation extracted again after a later one changed what it said (a ChatGPT conversation continued
 * and exported again): its values are history already recorded, not new history to add a second time.
 */
const LATER = T0 + 300 * DAY;
const rust = { id: 'rust', type: 'tool', name: 'Rust', state: { status: 'dropped' }, since: LATER };
const adopted: Fact = {
  id: 'fact-adopted',
  entityId: 'rust',
  attribute: 'status',
  value: 'adopted',
  validFrom: T0,
  validTo: LATER,
  supersededBy: 'fact-rust-status',
  episodeId: 'old',
  recordedAt: T0,
  confidence: 0.9,
};
const change = (value: string, extra: Record<string, string> = {}) => ({
  entityName: 'Rust',
  attribute: 'status',
  whatChanged: `Rust ${value}`,
  newStateAspect: value,
  confidence: 0.9,
  ...extra,
});

describe('history told again', () => {
  it('a value a closed fact already holds at that time adds no fact and no change', () => {
    const m = plan({ known: [rust], closed: [adopted], result: { stateChanges: [change('adopted')] } });
    expect(ops(m, 'fact.insert')).toEqual([]);
    expect(ops(m, 'transition.insert')).toEqual([]);
  });

  it('the same conversation extracted again is recognised although its instants moved by a millisecond', () => {
    const first = { ...adopted, episodeId: 'ep1', validFrom: T0 + 1 };
    const m = plan({ known: [rust], closed: [first], result: { stateChanges: [change('adopted')] } });
    expect(ops(m, 'fact.insert')).toEqual([]);
    // The same conversation telling the value of another time is not that telling: it held from then.
    const elsewhen = { ...first, validFrom: T0 + 2 * DAY, validTo: LATER };
    const other = plan({ known: [rust], closed: [elsewhen], result: { stateChanges: [change('adopted')] } });
    expect(ops(other, 'fact.insert')).toEqual([]);
    expect(ops(other, 'fact.backdate')).toEqual([{ op: 'fact.backdate', id: 'fact-adopted', validFrom: T0 }]);
  });

  it('is recorded once when it is new, even told twice in one batch', () => {
    const m = plan({ known: [rust], result: { stateChanges: [change('adopted'), change('adopted')] } });
    expect(ops(m, 'fact.insert').map((f) => [f.fact.value, f.fact.validFrom, f.fact.validTo])).toEqual([
      ['adopted', T0, LATER],
    ]);
  });

  it('another value is still history of its own; the same one from before its start held since then', () => {
    const trying = plan({ known: [rust], closed: [adopted], result: { stateChanges: [change('trying')] } });
    expect(ops(trying, 'fact.insert').map((f) => f.fact.value)).toEqual(['trying']);
    const before = plan({
      known: [rust],
      closed: [adopted],
      result: { stateChanges: [change('adopted', { eventTime: new Date(T0 - 10 * DAY).toISOString() })] },
    });
    expect(ops(before, 'fact.insert')).toEqual([]);
    expect(ops(before, 'fact.backdate')).toEqual([
      { op: 'fact.backdate', id: 'fact-adopted', validFrom: T0 - 10 * DAY },
    ]);
  });
});

describe('past values told late', () => {
  // Rust was "trying" from T0 until "dropped" at LATER (the current value); older conversations come in afterwards.
  const trying: Fact = { ...adopted, id: 'fact-trying', value: 'trying' };
  const at = (value: string, days: number) => change(value, { eventTime: new Date(T0 + days * DAY).toISOString() });
  const facts = (m: ReturnType<typeof plan>) => [
    ...ops(m, 'fact.insert').map((f) => [
      'insert',
      f.fact.value,
      (f.fact.validFrom - T0) / DAY,
      ((f.fact.validTo ?? 0) - T0) / DAY,
      f.fact.supersededBy,
    ]),
    ...ops(m, 'fact.close').map((f) => ['close', f.id, ((f.validTo ?? 0) - T0) / DAY, f.supersededBy]),
    ...ops(m, 'fact.backdate').map((f) => ['backdate', f.id, (f.validFrom - T0) / DAY]),
  ];

  it('make a chain, as in date order: each holds until the next known value, the one it falls in ends there', () => {
    // Two past values in one batch: "adopted" (day 100) ends where "paused" (day 200) begins, which ends at LATER.
    const m = plan({ known: [rust], closed: [], result: { stateChanges: [at('adopted', 100), at('paused', 200)] } });
    expect(facts(m)).toEqual([
      ['insert', 'adopted', 100, 300, 'fact-rust-status'],
      ['insert', 'paused', 200, 300, 'fact-rust-status'],
      ['close', 'id1', 200, 'id2'],
    ]);
    // A value inside a known one: that one ends where it begins; it runs to the next.
    const inside = plan({ known: [rust], closed: [trying], result: { stateChanges: [at('paused', 100)] } });
    expect(facts(inside)).toEqual([
      ['insert', 'paused', 100, 300, 'fact-rust-status'],
      ['close', 'fact-trying', 100, 'id1'],
    ]);
    // Before every known one: it runs to the first.
    const first = plan({ known: [rust], closed: [trying], result: { stateChanges: [at('curious', -50)] } });
    expect(facts(first)).toEqual([['insert', 'curious', -50, 0, 'fact-trying']]);
  });

  it('the current value told from inside the one before it: it began then, the one before ended then', () => {
    const m = plan({ known: [rust], closed: [trying], result: { stateChanges: [at('dropped', 250)] } });
    expect(facts(m)).toEqual([
      ['close', 'fact-trying', 250, 'fact-rust-status'],
      ['backdate', 'fact-rust-status', 250],
    ]);
    // Told from before any other value known, it simply held since then.
    const since = plan({ known: [rust], result: { stateChanges: [at('dropped', 50)] } });
    expect(facts(since)).toEqual([['backdate', 'fact-rust-status', 50]]);
    // Told at or after its start: nothing new.
    expect(facts(plan({ known: [rust], result: { stateChanges: [at('dropped', 300)] } }))).toEqual([]);
  });
});
