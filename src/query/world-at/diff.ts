import type { EntityState } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';
import { computeWorldDiff, createdInOrder, IMPLIED_EDGES, type WorldAt, type WorldDiff } from './diff-compute.js';
import { entitiesAtEach, type EntityAt } from './existing.js';
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
  const limit = input.limit ?? DEFAULT_DIFF_LIMIT;
  const refs = new Map<string, EntityRef>();
  const { before, after } = await worldsAt({ store, before: a.at, after: b.at, refs });
  // Only the values that differ between the two ends leave the store (a whole world's facts read at both ends was
  // most of a diff's time on a large memory); of the entities new at B, only the states of those listed are read.
  if (b.at > a.at) {
    for (const change of await store.facts.valuesChangedBetween({ after: a.at, until: b.at })) {
      if (!before.entities.has(change.entityId)) continue;
      valueOf(before.states, change.entityId)[change.attribute] = change.from;
      valueOf(after.states, change.entityId)[change.attribute] = change.to;
    }
  }
  const listed = createdInOrder({ before, after }).slice(0, limit);
  await readStates({ store, world: after, ids: listed.map((e) => e.id) });
  const between = b.at > a.at ? { since: a.at + 1, until: b.at + 1 } : null;
  // DURING edges only say "first seen in this period": implied by the new entities, left out of a diff.
  const relationships = between
    ? await store.relationships.changedBetween({ ...between, excludeTypes: [...IMPLIED_EDGES] })
    : [];
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
    limit,
  });
}

type World = WorldAt & { states: Map<string, EntityState> };

/** The worlds at two instants (the entities that existed then), from one read; their states not read yet. */
async function worldsAt(input: {
  store: WorldStore;
  before: number;
  after: number;
  refs: Map<string, EntityRef>;
}): Promise<{ before: World; after: World }> {
  const [then = [], later = []] = await entitiesAtEach({ store: input.store, times: [input.before, input.after] });
  const world = (at: number, list: readonly EntityAt[]): World => {
    const entities = new Map<string, EntityRef & { firstSeen: number }>();
    for (const { entity: e, tier } of list) {
      const ref = refOf(e, tier);
      input.refs.set(e.id, ref);
      entities.set(e.id, { ...ref, firstSeen: e.firstSeen });
    }
    return { at, entities, states: new Map() };
  };
  // Each ref carries the tier it had then; the later world is made last, so a diff's refs are badged as at B.
  const before = world(input.before, then);
  return { before, after: world(input.after, later) };
}

function valueOf(states: Map<string, EntityState>, id: string): EntityState {
  const state = states.get(id) ?? {};
  states.set(id, state);
  return state;
}

/** The state of `ids` at the world's instant, from the facts valid then. */
async function readStates(input: { store: WorldStore; world: World; ids: readonly string[] }): Promise<void> {
  if (input.ids.length === 0) return;
  for (const f of await input.store.facts.validAt({ time: input.world.at, entityIds: input.ids })) {
    valueOf(input.world.states, f.entityId)[f.attribute] = f.value;
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
