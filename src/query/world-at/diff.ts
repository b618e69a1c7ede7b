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
  const before = await worldAt({ store, at: a.at, refs });
  const after = await worldAt({ store, at: b.at, refs });
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

/** The entities that existed at `at` (not archived by then) and their state from the facts valid then. */
async function worldAt(input: { store: WorldStore; at: number; refs: Map<string, EntityRef> }): Promise<WorldAt> {
  const entities = new Map<string, EntityRef & { firstSeen: number }>();
  // Each ref carries the tier it had then; the later world is read last, so a diff's refs are badged as at B.
  for (const { entity: e, tier } of await entitiesAt({ store: input.store, at: input.at })) {
    const ref = refOf(e, tier);
    input.refs.set(e.id, ref);
    entities.set(e.id, { ...ref, firstSeen: e.firstSeen });
  }
  const states = new Map<string, EntityState>();
  for (const f of await input.store.facts.validAt({ time: input.at })) {
    if (!entities.has(f.entityId)) continue;
    const state = states.get(f.entityId) ?? {};
    state[f.attribute] = f.value;
    states.set(f.entityId, state);
  }
  return { at: input.at, entities, states };
}

/**
 * Where a span's activity is counted: inside the span up to the instant it is read at. "Now" has no extent of its
 * own, so its activity is what happened since the other end.
 */
function activityWindow(span: Span, other: Span): { since: number; until: number } {
  if (span.kind === 'now') return { since: Math.min(other.at + 1, span.at), until: span.at + 1 };
  return { since: span.start, until: Math.min(span.end, span.at + 1) };
}
