import { describe, expect, it } from 'vitest';
import type { EntityState, Relationship, Transition } from '../../domain/world.js';
import { computeWorldDiff, type DiffInput, type WorldAt } from './diff-compute.js';
import type { EntityRef } from './refs.js';
import type { Span } from './span.js';

const T = (iso: string): number => Date.parse(iso);
const A_END = T('2025-05-28T14:00:00Z');
const B_END = T('2025-10-02T14:00:00Z');
const A: Span = { kind: 'period', start: T('2024-09-10T14:00:00Z'), end: A_END + 1, at: A_END, label: 'junior year' };
const B: Span = { kind: 'period', start: T('2025-08-15T14:00:00Z'), end: B_END + 1, at: B_END, label: 'gap semester' };

const ref = (id: string, type: string, importance = 0.5): EntityRef => ({
  id,
  name: id,
  type,
  importance,
  tier: 'active',
});
const REFS = [
  ref('Tidepool', 'project', 0.9),
  ref('Maya', 'person', 0.6),
  ref('Notion', 'tool'),
  ref('Anki', 'tool'),
  ref('Firebase', 'tool'),
  ref('KG', 'belief'),
  ref('junior', 'period'),
  ref('Supabase', 'tool', 0.7),
  ref('Obsidian', 'tool'),
  ref('Hybrid', 'belief'),
];
const refs = new Map(REFS.map((r) => [r.id, r]));

/** A world at `at` with these entities (id, or [id, first seen]) and states. */
function world(at: number, ids: (string | [string, string])[], states: Record<string, EntityState>): WorldAt {
  return {
    at,
    entities: new Map(
      ids.map((entry) => {
        const [id, seen] = typeof entry === 'string' ? [entry, '2024-01-01'] : entry;
        return [id, { ...(refs.get(id) as EntityRef), firstSeen: T(seen) }];
      }),
    ),
    states: new Map(Object.entries(states)),
  };
}

const OLD = ['Tidepool', 'Maya', 'Notion', 'Anki', 'Firebase', 'KG', 'junior'];
const before = world(A_END, OLD, {
  Tidepool: { stage: 'prototype', focus: 'study groups', owner: 'Maya' },
  KG: { stance: 'held', domain: 'AI memory' },
});
const after = world(
  B_END,
  [
    ...OLD,
    ['Obsidian', '2025-10-02T14:00:00Z'],
    ['Hybrid', '2025-08-15T14:00:00Z'],
    ['Supabase', '2025-08-15T14:00:00Z'],
  ],
  {
    Tidepool: { stage: 'Beta', focus: 'research notes', team: 'two', owner: 'maya ' },
    KG: { stance: 'abandoned', domain: 'AI memory' },
    Hybrid: { stance: 'held' },
  },
);

const edge = (
  id: string,
  source: string,
  type: string,
  target: string,
  from: string,
  to: string | null,
): Relationship => ({
  id,
  type,
  sourceId: source,
  targetId: target,
  properties: {},
  validFrom: T(from),
  validTo: to === null ? null : T(to),
  confidence: 0.8,
  episodeId: null,
  recordedAt: 0,
  discoveredBy: null,
});

const contradiction = (id: string, entityId: string, from: EntityState, to: EntityState, at: string): Transition => ({
  id,
  entityId,
  kind: 'contradiction',
  fromState: from,
  toState: to,
  summary: `${entityId} flipped`,
  eventTime: T(at),
  recordedAt: 0,
  confidence: 0.9,
  episodeId: null,
  batchId: null,
  resolvedBy: null,
});

const activity = (entityId: string, mentions: number, first: string, last: string) => ({
  entityId,
  mentions,
  first: T(first),
  last: T(last),
});

const INPUT: DiffInput = {
  a: A,
  b: B,
  swapped: false,
  before,
  after,
  relationships: [
    edge('r1', 'Tidepool', 'USES', 'Supabase', '2025-08-15T14:00:00Z', null),
    edge('r2', 'Tidepool', 'USES', 'Firebase', '2024-11-05T14:00:00Z', '2025-08-15T14:00:00Z'),
    edge('r3', 'Maya', 'WORKS_ON', 'Tidepool', '2024-09-10T14:00:00Z', '2025-10-02T14:00:00Z'),
    // Begun and ended between the two ends: in neither world, so not a difference between them.
    edge('r4', 'Maya', 'USES', 'Notion', '2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z'),
    // Implied by "created".
    edge('r5', 'Supabase', 'DURING', 'junior', '2025-08-15T14:00:00Z', null),
    // Begins after B's end.
    edge('r6', 'Maya', 'USES', 'Anki', '2025-10-20T00:00:00Z', null),
  ],
  contradictions: [
    contradiction('t1', 'Tidepool', { focus: 'study groups' }, { focus: 'research notes' }, '2025-08-15T14:00:00Z'),
    contradiction('t2', 'KG', { stance: 'held' }, { stance: 'abandoned' }, '2025-08-15T14:00:00Z'),
    // At A's end exactly: already part of the world at A.
    contradiction('t0', 'Maya', { role: 'a' }, { role: 'b' }, '2025-05-28T14:00:00Z'),
  ],
  activityA: [
    activity('Tidepool', 3, '2024-09-10', '2025-05-28'),
    activity('Notion', 3, '2024-09-10', '2025-03-20'),
    activity('Maya', 1, '2024-09-10', '2024-09-10'),
    activity('junior', 4, '2024-09-10', '2025-05-28'),
  ],
  activityB: [
    activity('Tidepool', 2, '2025-08-15', '2025-10-02'),
    activity('Anki', 1, '2025-10-02', '2025-10-02'),
    activity('Maya', 1, '2025-10-02', '2025-10-02'),
    activity('Supabase', 1, '2025-08-15', '2025-08-15'),
  ],
  refs,
  limit: 20,
};

describe('computeWorldDiff', () => {
  const diff = computeWorldDiff(INPUT);

  it('new entities: in the later world only, most important first, then first seen', () => {
    expect(diff.entities).toEqual({ before: 7, after: 10 });
    expect(diff.created.items.map((e) => [e.id, e.state])).toEqual([
      ['Supabase', {}],
      ['Hybrid', { stance: 'held' }],
      ['Obsidian', {}],
    ]);
  });

  it('attribute changes from the states (case-insensitive values; a belief stance is a reversal, not a change)', () => {
    expect(diff.attributesChanged.items.map((c) => [c.entity.id, c.attribute, c.from, c.to])).toEqual([
      ['Tidepool', 'focus', 'study groups', 'research notes'],
      ['Tidepool', 'stage', 'prototype', 'Beta'],
      ['Tidepool', 'team', null, 'two'],
    ]);
  });

  it('relationships begun and ended are those valid at one end and not the other, without DURING', () => {
    expect(diff.relationshipsBegun.items.map((r) => r.id)).toEqual(['r1']);
    expect(diff.relationshipsEnded.items.map((r) => [r.id, r.time])).toEqual([
      ['r2', T('2025-08-15T14:00:00Z')],
      ['r3', T('2025-10-02T14:00:00Z')],
    ]);
  });

  it('belief reversals and other contradictions in (A, B] are told apart', () => {
    expect(diff.beliefsReversed.items.map((c) => [c.entity.id, c.from, c.to])).toEqual([
      ['KG', { stance: 'held' }, { stance: 'abandoned' }],
    ]);
    expect(diff.contradictions.items.map((c) => c.transitionId)).toEqual(['t1']);
  });

  it('gone quiet: mentioned in A, not in B (periods left out); active again: existed by A, mentioned only in B', () => {
    expect(diff.goneQuiet.items.map((x) => [x.entity.id, x.mentionsA, x.time])).toEqual([
      ['Notion', 3, T('2025-03-20')],
    ]);
    expect(diff.newlyActive.items.map((x) => [x.entity.id, x.mentionsB, x.time])).toEqual([
      ['Anki', 1, T('2025-10-02')],
    ]);
  });

  it('lists are cut to the limit and keep their totals', () => {
    const small = computeWorldDiff({ ...INPUT, limit: 1 });
    expect(small.created).toMatchObject({ total: 3, items: [{ id: 'Supabase' }] });
    expect(small.attributesChanged.total).toBe(3);
    expect(small.attributesChanged.items).toHaveLength(1);
    expect(small.relationshipsEnded.total).toBe(2);
  });

  it('the same world twice has no changes', () => {
    const same = computeWorldDiff({
      ...INPUT,
      after: before,
      relationships: [],
      contradictions: [],
      activityB: INPUT.activityA,
    });
    expect(
      [
        same.created,
        same.attributesChanged,
        same.relationshipsBegun,
        same.relationshipsEnded,
        same.beliefsReversed,
        same.contradictions,
        same.goneQuiet,
        same.newlyActive,
      ].map((l) => l.total),
    ).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
