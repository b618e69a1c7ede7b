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
    // The same conversation telling the value of another time is not that telling.
    const elsewhen = { ...first, validFrom: T0 + 2 * DAY, validTo: LATER };
    const other = plan({ known: [rust], closed: [elsewhen], result: { stateChanges: [change('adopted')] } });
    expect(ops(other, 'fact.insert').map((f) => f.fact.validFrom)).toEqual([T0]);
  });

  it('is recorded once when it is new, even told twice in one batch', () => {
    const m = plan({ known: [rust], result: { stateChanges: [change('adopted'), change('adopted')] } });
    expect(ops(m, 'fact.insert').map((f) => [f.fact.value, f.fact.validFrom, f.fact.validTo])).toEqual([
      ['adopted', T0, LATER],
    ]);
  });

  it('another value, or the same one at a time the closed fact does not cover, is still history of its own', () => {
    const trying = plan({ known: [rust], closed: [adopted], result: { stateChanges: [change('trying')] } });
    expect(ops(trying, 'fact.insert').map((f) => f.fact.value)).toEqual(['trying']);
    const before = plan({
      known: [rust],
      closed: [adopted],
      result: { stateChanges: [change('adopted', { eventTime: new Date(T0 - 10 * DAY).toISOString() })] },
    });
    expect(ops(before, 'fact.insert').map((f) => [f.fact.validFrom, f.fact.validTo])).toEqual([[T0 - 10 * DAY, LATER]]);
  });
});
