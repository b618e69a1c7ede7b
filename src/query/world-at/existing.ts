import type { Entity, Tier, Transition } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';

/** An entity as it stood at an instant: its tier then (archiving later does not reach back). */
export interface EntityAt {
  entity: Entity;
  tier: Tier;
}

/**
 * The entities that existed at `at` (first seen by then), of `type` when given, each with the tier it had then.
 * Archived is a tier of attention, not non-existence: an archived entity is in every snapshot from its first mention
 * on, shown as archived from its archival on and with its earlier tier before (so archiving something today changes
 * no snapshot of the past, and a snapshot of now still counts it). Entities merged into another are not separate
 * things: their names and history live on in the entity they were merged into.
 */
export async function entitiesAt(input: { store: WorldStore; at: number; type?: string }): Promise<EntityAt[]> {
  const { store, at } = input;
  const all = await store.entities.list({
    firstSeenAtOrBefore: at,
    excludeMerged: true,
    ...(input.type === undefined ? {} : { type: input.type }),
  });
  const resting = all.filter((e) => e.tier !== 'active').map((e) => e.id);
  if (resting.length === 0) return all.map((entity) => ({ entity, tier: entity.tier }));
  const [archivals, summaries] = await Promise.all([
    store.transitions.list({ entityIds: resting, kind: 'archival' }),
    store.transitions.list({ entityIds: resting, kind: 'summary', until: at + 1 }),
  ]);
  const archivedAt = latestTimes(archivals);
  const summarized = new Set(summaries.map((t) => t.entityId));
  return all.map((entity) => {
    if (entity.tier === 'archived' && archivedSince({ entity, archivedAt: archivedAt.get(entity.id) }) <= at) {
      return { entity, tier: 'archived' as const };
    }
    if (entity.tier === 'active') return { entity, tier: 'active' as const };
    // Summarized now, or archived later: what it was at `at`.
    return { entity, tier: summarized.has(entity.id) ? ('summarized' as const) : ('active' as const) };
  });
}

/**
 * Pure: since when an archived entity has been archived — its latest archival transition, or, when it was archived
 * without one (a KIP link proxy, an older store), the last time its row changed.
 */
export function archivedSince(input: { entity: Entity; archivedAt: number | undefined }): number {
  return input.archivedAt ?? input.entity.updatedAt;
}

function latestTimes(transitions: readonly Transition[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of transitions) out.set(t.entityId, Math.max(out.get(t.entityId) ?? t.eventTime, t.eventTime));
  return out;
}
