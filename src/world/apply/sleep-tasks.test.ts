import { describe, expect, it } from 'vitest';
import type { Fact, Transition } from '../../domain/world.js';
import type { Mutation } from './mutations.js';
import { sleepTasksFromApply } from './sleep-tasks.js';

const T = Date.UTC(2025, 0, 1);

function transition(id: string, kind: Transition['kind']): Mutation {
  return {
    op: 'transition.insert',
    transition: {
      id,
      entityId: 'e1',
      kind,
      fromState: null,
      toState: {},
      summary: 'Pivoted to research',
      eventTime: T,
      recordedAt: T,
      confidence: 0.9,
      episodeId: null,
      batchId: null,
      resolvedBy: null,
    },
  };
}

function fact(id: string, confidence: number): Mutation {
  const f: Fact = {
    id,
    entityId: 'e2',
    attribute: 'stage',
    value: 'idea',
    validFrom: T,
    validTo: null,
    supersededBy: null,
    episodeId: null,
    recordedAt: T,
    confidence,
  };
  return { op: 'fact.insert', fact: f };
}

function run(mutations: Mutation[], ambiguous: Parameters<typeof sleepTasksFromApply>[0]['ambiguous'] = []) {
  let n = 0;
  return sleepTasksFromApply({ mutations, ambiguous, now: T, newId: () => `k${++n}` }).map((t) => [
    t.action,
    t.subjectIds,
    t.payload,
    t.dedupeKey ?? null,
  ]);
}

describe('sleepTasksFromApply', () => {
  it.each([
    ['an update leaves nothing', [transition('t1', 'update')], []],
    [
      'a contradiction leaves one task keyed by its transition',
      [transition('t1', 'contradiction')],
      [['resolve_contradiction', ['e1'], { transitionId: 't1' }, 'resolve_contradiction:t1']],
    ],
    [
      'a fact below 0.5 leaves a review',
      [fact('f1', 0.4), fact('f2', 0.5)],
      [['review_low_confidence', ['e2'], { factId: 'f1', attribute: 'stage' }, 'review_low_confidence:f1']],
    ],
  ] as const)('%s', (_name, mutations, expected) => {
    expect(run([...mutations])).toEqual(expected);
  });

  it('leaves a merge task per close candidate only for a mention that became a new entity', () => {
    const inserted: Mutation = {
      op: 'entity.insert',
      entity: {
        id: 'n1',
        type: 'project',
        name: 'Tidepool app',
        state: {},
        firstSeen: T,
        lastSeen: T,
        createdFrom: null,
        recordedAt: T,
      },
    };
    expect(
      run(
        [inserted],
        [
          { entityId: 'n1', name: 'Tidepool app', candidateIds: ['p1', 'p2'] },
          { entityId: 'never-inserted', name: 'Tide', candidateIds: ['p1'] },
        ],
      ),
    ).toEqual([
      ['merge_duplicates', ['n1', 'p1'], { name: 'Tidepool app' }, null],
      ['merge_duplicates', ['n1', 'p2'], { name: 'Tidepool app' }, null],
    ]);
  });
});
