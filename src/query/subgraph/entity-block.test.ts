import { describe, expect, it } from 'vitest';
import { DAY, T0, transition } from '../test-kit.js';
import { pickTransitions } from './entity-block.js';

const all = Array.from({ length: 20 }, (_, i) =>
  transition({
    id: `t${i}`,
    eventTime: T0 + i * DAY,
    kind: i === 0 ? 'creation' : i === 5 ? 'contradiction' : 'update',
  }),
);
const ids = (ts: { id: string }[]) => ts.map((t) => t.id);

describe('pickTransitions: current by default, history on request', () => {
  it('current mode shows the latest three changes plus any unresolved contradiction', () => {
    expect(ids(pickTransitions({ all, options: { history: false, maxTransitions: 12, maxRelationships: 8 } }))).toEqual(
      ['t5', 't17', 't18', 't19'],
    );
  });
  it('a resolved contradiction is history, not current', () => {
    const resolved = all.map((t) => (t.id === 't5' ? { ...t, resolvedBy: 'r' } : t));
    expect(
      ids(pickTransitions({ all: resolved, options: { history: false, maxTransitions: 12, maxRelationships: 8 } })),
    ).toEqual(['t17', 't18', 't19']);
  });
  it('history mode keeps the first transition and the most recent ones', () => {
    const shown = pickTransitions({ all, options: { history: true, maxTransitions: 5, maxRelationships: 8 } });
    expect(ids(shown)).toEqual(['t0', 't16', 't17', 't18', 't19']);
  });
  it('history mode with a range keeps only transitions inside it (end exclusive)', () => {
    const range = { start: T0 + 3 * DAY, end: T0 + 6 * DAY };
    const shown = pickTransitions({ all, options: { history: true, range, maxTransitions: 12, maxRelationships: 8 } });
    expect(ids(shown)).toEqual(['t3', 't4', 't5']);
  });
});
