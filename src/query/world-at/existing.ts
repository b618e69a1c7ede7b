import type { Entity, Tier, Transition } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';

/** An entity as it stood at an instant: its tier then (archiving later does not reach back). */
export interface EntityAt {
  entity: Entity;
  tier: Tier;
}

/**
 * The entities that existed at `at` (first seen by then), of `type` when given. An archived entity is left out only
 * from its archival on: history is never rewritten, so a past snapshot does not change because of a later archive.
 */
export async function entitiesAt(input: { store: WorldStore; at: number; type?: string }): Promise<EntityAt[]> {
  const { store, at } = input;
  const all = await store.entities.list({
    firstSeenAtOrBefore: at,
    ...(input.type === undefined ? {} : { type: input.type }),
  });
  const archived = all.filter((e) => e.tier === 'archived').map((e) => e.id);
  if (archived.length === 0) return all.map((entity) => ({ entity, tier: entity.tier }));
  const [archivals, summaries] = await Promise.all([
    store.transitions.list({ entityIds: archived, kind: 'archival' }),
    store.transitions.list({ entityIds: archived, kind: 'summary', until: at + 1 }),
  ]);
  const archivedAt = latestTimes(archivals);
  const summarized = new Set(summaries.map((t) => t.entityId));
  const out: EntityAt[] = [];
  for (const entity of all) {
    if (entity.tier !== 'archived') {
      out.push({ entity, tier: entity.tier });
      continue;
    }
    if (archivedSince({ entity, archivedAt: archivedAt.get(entity.id) }) <= at) continue;
    out.push({ entity, tier: summarized.has(entity.id) ? 'summarized' : 'active' });
  }
  return out;
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
