import type { WorldStore } from '../ports/world-store.js';

/**
 * A period PIE knows of by name but not by its dates: a life period said in talk ("my childhood", "Jon's
 * unemployment") has a period entity, while only periods with a start (the life periods the batches were anchored to)
 * are in the store's period list. `pie periods`, list_periods and /api/periods show both, so that "no periods" is never
 * said of a memory that names eleven.
 */
export interface UndatedPeriod {
  id: string;
  name: string;
  /** The entity's `status` ("ended", "active") when it has one. */
  status: string | null;
  lastSeen: number;
}

/** Period entities without a dated period, most recently mentioned first (merged ones left out). */
export async function undatedPeriods(store: WorldStore): Promise<UndatedPeriod[]> {
  const dated = new Set((await store.periods.list()).map((p) => p.entityId));
  const entities = await store.entities.list({ type: 'period', excludeMerged: true });
  return entities
    .filter((e) => !dated.has(e.id))
    .map((e) => ({
      id: e.id,
      name: e.name,
      status: typeof e.state.status === 'string' ? e.state.status : null,
      lastSeen: e.lastSeen,
    }))
    .sort((a, b) => b.lastSeen - a.lastSeen || a.name.localeCompare(b.name));
}
