import type { Entity, Tier, Transition } from '../../domain/world.js';
import type { EntityBrief, WorldStore } from '../../ports/world-store.js';

/** An entity as it stood at an instant: its tier then (archiving later does not reach back). */
export interface EntityAt {
  entity: EntityBrief;
  tier: Tier;
}

/**
 * The entities that existed at `at` (first seen by then), of `type` when given, each with the tier it had then.
 * Archived is a tier of attention, not non-existence: an archived entity is in every snapshot from its first mention
 * on, shown as archived from its archival on and with its earlier tier before (so archiving something today changes
 * no snapshot of the past, and a snapshot of now still counts it); summarized likewise, from when it was summarized.
 * Entities merged into another are not separate things: their names and history live on in the entity they were
 * merged into.
 */
export async function entitiesAt(input: { store: WorldStore; at: number; type?: string }): Promise<EntityAt[]> {
  const [only] = await entitiesAtEach({ ...input, times: [input.at] });
  return only ?? [];
}

/**
 * entitiesAt for several instants from one read of the entities (a diff's two ends): the list for each of `times`,
 * in that order, each most important first.
 */
export async function entitiesAtEach(input: {
  store: WorldStore;
  times: readonly number[];
  type?: string;
}): Promise<EntityAt[][]> {
  const { store, times } = input;
  if (times.length === 0) return [];
  const latest = Math.max(...times);
  const all = await store.entities.listBriefs({
    firstSeenAtOrBefore: latest,
    excludeMerged: true,
    ...(input.type === undefined ? {} : { type: input.type }),
  });
  const resting = all.filter((e) => e.tier !== 'active').map((e) => e.id);
  const [archivals, summaries] =
    resting.length === 0
      ? [[], []]
      : await Promise.all([
          store.transitions.list({ entityIds: resting, kind: 'archival' }),
          store.transitions.list({ entityIds: resting, kind: 'summary' }),
        ]);
  const archivedAt = latestTimes(archivals);
  // Summarized when the sleep summarized it (recordedAt), not at the last change it summarizes (its event time,
  // where the timeline lists it): summarizing today changes no snapshot of the past, as archiving does not. Never
  // before that last change, though: a sleep run with a clock set in the past summarized nothing before it.
  const summarizedFrom = summaries.map((t) => ({ entityId: t.entityId, since: Math.max(t.recordedAt, t.eventTime) }));
  return times.map((at) => {
    const summarized = new Set(summarizedFrom.filter((s) => s.since < at + 1).map((s) => s.entityId));
    return all
      .filter((entity) => entity.firstSeen <= at)
      .map((entity) => ({ entity, tier: tierAt({ entity, at, archivedAt: archivedAt.get(entity.id), summarized }) }));
  });
}

/** Pure: the tier an entity had at `at`, from its tier now, its latest archival and whether it was summarized by then. */
function tierAt(input: {
  entity: EntityBrief;
  at: number;
  archivedAt: number | undefined;
  summarized: ReadonlySet<string>;
}): Tier {
  const { entity } = input;
  if (entity.tier === 'archived' && archivedSince({ entity, archivedAt: input.archivedAt }) <= input.at) {
    return 'archived';
  }
  if (entity.tier === 'active') return 'active';
  // Summarized now, or archived later: what it was at `at`.
  return input.summarized.has(entity.id) ? 'summarized' : 'active';
}

/**
 * Pure: since when an archived entity has been archived — its latest archival transition, or, when it was archived
 * without one (a KIP link proxy, an older store), the last time its row changed.
 */
export function archivedSince(input: { entity: Pick<Entity, 'updatedAt'>; archivedAt: number | undefined }): number {
  return input.archivedAt ?? input.entity.updatedAt;
}

function latestTimes(transitions: readonly Transition[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of transitions) out.set(t.entityId, Math.max(out.get(t.entityId) ?? t.eventTime, t.eventTime));
  return out;
}
