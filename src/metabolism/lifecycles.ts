import type { Transition } from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';
import type { SalienceResult } from './plan.js';

export interface StoredLifecycle {
  entityId: string;
  entityType: string;
  /** Chronological, as the store lists them. */
  transitions: Transition[];
}

/**
 * Every scored entity's transitions, grouped per entity (periods left out: their "history" is the calendar, not the
 * user's behaviour). What both procedure miners read.
 */
export async function readLifecycles(store: WorldStore, salience: SalienceResult): Promise<StoredLifecycle[]> {
  const types = new Map(salience.nodes.filter((n) => n.type !== 'period').map((n) => [n.id, n.type]));
  const byEntity = new Map<string, Transition[]>();
  for (const t of await store.transitions.list()) {
    if (!types.has(t.entityId)) continue;
    const list = byEntity.get(t.entityId) ?? [];
    list.push(t);
    byEntity.set(t.entityId, list);
  }
  return [...byEntity.entries()].map(([entityId, transitions]) => ({
    entityId,
    entityType: types.get(entityId) ?? 'unknown',
    transitions,
  }));
}
