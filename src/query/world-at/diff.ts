import type { EntityState } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';
import { computeWorldDiff, type WorldAt, type WorldDiff } from './diff-compute.js';
import { entitiesAt } from './existing.js';
import { loadRefs, refOf, type EntityRef } from './refs.js';
import type { Span } from './span.js';

export type { WorldDiff } from './diff-compute.js';

export const DEFAULT_DIFF_LIMIT = 20;

/**
 * What changed between the world at the end of A and at the end of B (diff_periods). When B ends before A the two
 * are swapped (and the diff says so), so that "before" is always the earlier world.
 */
export async function diffWorld(input: { store: WorldStore; a: Span; b: Span; limit?: number }): Promise<WorldDiff> {
  const { store } = input;
  const swapped = input.b.at < input.a.at;
  const [a, b] = swapped ? [input.b, input.a] : [input.a, input.b];
  const refs = new Map<string, EntityRef>();
  const before = await entitiesThen({ store, at: a.at, refs });
  const after = await entitiesThen({ store, at: b.at, refs });
  // States are read only where they can differ (a fact began or ended between the two ends) and for the entities
  // new at B: a whole world's facts read twice was most of a diff's time on a large memory.
  const changed = b.at > a.at ? await store.facts.entitiesChangedBetween({ after: a.at, until: b.at }) : [];
  const created = [...after.entities.keys()].filter((id) => !before.entities.has(id));
  await readStates({ store, world: before, ids: changed.filter((id) => before.entities.has(id)) });
  await readStates({ store, world: after, ids: [...changed.filter((id) => after.entities.has(id)), ...created] });
  const between = b.at > a.at ? { since: a.at + 1, until: b.at + 1 } : null;
  const relationships = between ? await store.relationships.changedBetween(between) : [];
  const contradictions = between ? await store.transitions.list({ ...between, kind: 'contradiction' }) : [];
  const activityA = await store.mentions.activeBetween(activityWindow(a, b));
  const activityB = await store.mentions.activeBetween(activityWindow(b, a));
  await loadRefs({
    store,
    ids: [
      ...relationships.flatMap((r) => [r.sourceId, r.targetId]),
      ...contradictions.map((t) => t.entityId),
      ...activityA.map((x) => x.entityId),
      ...activityB.map((x) => x.entityId),
    ],
    known: refs,
  });
  return computeWorldDiff({
    a,
    b,
    swapped,
    before,
    after,
    relationships,
    contradictions,
    activityA,
    activityB,
    refs,
    limit: input.limit ?? DEFAULT_DIFF_LIMIT,
  });
}

/** The entities that existed at `at` (not archived by then), their states not read yet (see readStates). */
async function entitiesThen(input: {
  store: WorldStore;
  at: number;
  refs: Map<string, EntityRef>;
}): Promise<WorldAt & { states: Map<string, EntityState> }> {
  const entities = new Map<string, EntityRef & { firstSeen: number }>();
  // Each ref carries the tier it had then; the later world is read last, so a diff's refs are badged as at B.
  for (const { entity: e, tier } of await entitiesAt({ store: input.store, at: input.at })) {
    const ref = refOf(e, tier);
    input.refs.set(e.id, ref);
    entities.set(e.id, { ...ref, firstSeen: e.firstSeen });
  }
  return { at: input.at, entities, states: new Map() };
}

/** The state of `ids` at the world's instant, from the facts valid then. */
async function readStates(input: {
  store: WorldStore;
  world: WorldAt & { states: Map<string, EntityState> };
  ids: readonly string[];
}): Promise<void> {
  if (input.ids.length === 0) return;
  for (const f of await input.store.facts.validAt({ time: input.world.at, entityIds: input.ids })) {
    const state = input.world.states.get(f.entityId) ?? {};
    state[f.attribute] = f.value;
    input.world.states.set(f.entityId, state);
  }
}

/**
 * Where a span's activity is counted: inside the span up to the instant it is read at. "Now" has no extent of its
 * own, so its activity is what happened since the other end.
 */
function activityWindow(span: Span, other: Span): { since: number; until: number } {
  if (span.kind === 'now') return { since: Math.min(other.at + 1, span.at), until: span.at + 1 };
  return { since: span.start, until: Math.min(span.end, span.at + 1) };
}
