import { describe, expect, it } from 'vitest';
import type { EntityState, Fact, StateValue } from '../domain/world.js';
import { repairFacts, stateAfter, type FactRepair } from './forget-facts.js';

/** A fact of entity e; `next` supersedes it from `to` on (a closed fact), or it is current. */
const fact = (id: string, attribute: string, value: StateValue, from: number, next?: [string, number]): Fact => ({
  id,
  entityId: 'e',
  attribute,
  value,
  validFrom: from,
  validTo: next ? next[1] : null,
  supersededBy: next ? next[0] : null,
  episodeId: null,
  recordedAt: from,
  confidence: 0.8,
});

const cases: {
  title: string;
  facts: Fact[];
  removed: string[];
  state: EntityState;
  repairs: FactRepair[];
  after: EntityState;
}[] = [
  {
    title: 'the current value goes: the one it superseded is current again',
    facts: [fact('a', 'stage', 'idea', 1, ['b', 5]), fact('b', 'stage', 'beta', 5)],
    removed: ['b'],
    state: { stage: 'beta' },
    repairs: [{ id: 'a', validTo: null, supersededBy: null }],
    after: { stage: 'idea' },
  },
  {
    title: 'a middle value goes: its predecessor is superseded by its successor',
    facts: [
      fact('a', 'stage', 'idea', 1, ['b', 5]),
      fact('b', 'stage', 'beta', 5, ['c', 9]),
      fact('c', 'stage', 'live', 9),
    ],
    removed: ['b'],
    state: { stage: 'live' },
    repairs: [{ id: 'a', validTo: 9, supersededBy: 'c' }],
    after: { stage: 'live' },
  },
  {
    title: 'two values in a row go: the chain skips both',
    facts: [
      fact('a', 'stage', 'idea', 1, ['b', 5]),
      fact('b', 'stage', 'beta', 5, ['c', 7]),
      fact('c', 'stage', 'paused', 7, ['d', 9]),
      fact('d', 'stage', 'live', 9),
    ],
    removed: ['b', 'c'],
    state: { stage: 'live' },
    repairs: [{ id: 'a', validTo: 9, supersededBy: 'd' }],
    after: { stage: 'live' },
  },
  {
    title: 'the first value goes: nothing pointed at it, the current one stays',
    facts: [fact('a', 'stage', 'idea', 1, ['b', 5]), fact('b', 'stage', 'beta', 5)],
    removed: ['a'],
    state: { stage: 'beta' },
    repairs: [],
    after: { stage: 'beta' },
  },
  {
    title: 'the only value of an attribute goes: the attribute leaves the state, the others stay',
    facts: [fact('a', 'code', 'x-1', 1), fact('b', 'stage', 'beta', 1)],
    removed: ['a'],
    state: { stage: 'beta', code: 'x-1' },
    repairs: [],
    after: { stage: 'beta' },
  },
  {
    title: 'a late-arriving older value and the value before both pointed at the removed one: the later one is current',
    facts: [
      fact('a', 'role', 'student', 1, ['c', 9]),
      fact('h', 'role', 'intern', 4, ['c', 9]),
      fact('c', 'role', 'founder', 9),
    ],
    removed: ['c'],
    state: { role: 'founder' },
    repairs: [
      { id: 'a', validTo: 4, supersededBy: 'h' },
      { id: 'h', validTo: null, supersededBy: null },
    ],
    after: { role: 'intern' },
  },
];

describe('repairFacts and stateAfter', () => {
  for (const c of cases) {
    it(c.title, () => {
      const removed = new Set(c.removed);
      const repairs = repairFacts(c.facts, removed);
      expect([...repairs].sort((x, y) => x.id.localeCompare(y.id))).toEqual(c.repairs);
      expect(stateAfter({ state: c.state, facts: c.facts, removed, repairs })).toEqual(c.after);
    });
  }
});
