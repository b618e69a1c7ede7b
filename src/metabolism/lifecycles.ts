import { pushTo } from '../domain/collections.js';
import type { Transition } from '../domain/world.js';
import type { TransitionStep, WorldStore } from '../ports/world-store.js';
import type { SalienceResult } from './plan.js';

export interface StoredLifecycle<T extends TransitionStep = Transition> {
  entityId: string;
  entityType: string;
  /** Chronological, as the store lists them. */
  transitions: T[];
}

/**
 * Every scored entity's transitions, grouped per entity (periods left out: their "history" is the calendar, not the
 * user's behaviour). What the model's procedure miner reads (it shows their summaries).
 */
export async function readLifecycles(store: WorldStore, salience: SalienceResult): Promise<StoredLifecycle[]> {
  return grouped(salience, await store.transitions.list());
}

/** readLifecycles as steps (without summaries and bookkeeping): what the deterministic miner reads. */
export async function readLifecycleSteps(
  store: WorldStore,
  salience: SalienceResult,
): Promise<StoredLifecycle<TransitionStep>[]> {
  return grouped(salience, await store.transitions.listSteps());
}

function grouped<T extends TransitionStep>(salience: SalienceResult, all: readonly T[]): StoredLifecycle<T>[] {
  const types = new Map(salience.nodes.filter((n) => n.type !== 'period').map((n) => [n.id, n.type]));
  const byEntity = new Map<string, T[]>();
  for (const t of all) if (types.has(t.entityId)) pushTo(byEntity, t.entityId, t);
  return [...byEntity.entries()].map(([entityId, transitions]) => ({
    entityId,
    entityType: types.get(entityId) ?? 'unknown',
    transitions,
  }));
}
