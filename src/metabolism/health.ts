import type { WorldStore } from '../ports/world-store.js';
import type { SalienceResult } from './plan.js';

/** Targets a healthy world model should meet (KIP sleep spec: orphans and backlog kept small). */
export const HEALTH_TARGETS = {
  /** Share of entities with no current relationship. */
  maxIsolatedShare: 0.2,
  /** Contradictions left open. */
  maxUnresolvedContradictions: 20,
  /** Sleep tasks waiting for a cycle (KIP sleep spec: pending SleepTasks < 10). */
  maxPendingTasks: 10,
} as const;

export interface HealthReport {
  entities: number;
  byTier: Record<string, number>;
  meanImportance: number;
  isolated: number;
  isolatedShare: number;
  unresolvedContradictions: number;
  procedures: number;
  /** Sleep tasks waiting for the next cycle. */
  pendingTasks: number;
  /** Targets missed, in words; empty when healthy. */
  warnings: string[];
}

export async function computeHealth(input: { store: WorldStore; salience: SalienceResult }): Promise<HealthReport> {
  const { store, salience } = input;
  const stats = await store.stats();
  const unresolved = (await store.transitions.list({ unresolved: true })).length;
  const pendingTasks = await store.tasks.count({ statuses: ['pending', 'in_progress'] });
  const entities = salience.nodes.length;
  const isolatedShare = entities === 0 ? 0 : Math.round((salience.isolated / entities) * 1000) / 1000;
  const warnings: string[] = [];
  if (isolatedShare > HEALTH_TARGETS.maxIsolatedShare) {
    warnings.push(
      `${salience.isolated} of ${entities} entities have no relationship (target at most ${HEALTH_TARGETS.maxIsolatedShare * 100}%).`,
    );
  }
  if (unresolved > HEALTH_TARGETS.maxUnresolvedContradictions) {
    warnings.push(
      `${unresolved} contradictions are unresolved (target at most ${HEALTH_TARGETS.maxUnresolvedContradictions}); see pie contradictions.`,
    );
  }
  if (pendingTasks >= HEALTH_TARGETS.maxPendingTasks) {
    warnings.push(
      `${pendingTasks} sleep tasks are waiting (target fewer than ${HEALTH_TARGETS.maxPendingTasks}); run pie sleep.`,
    );
  }
  return {
    entities,
    byTier: stats.entitiesByTier,
    meanImportance: salience.meanImportance,
    isolated: salience.isolated,
    isolatedShare,
    unresolvedContradictions: unresolved,
    procedures: stats.procedures,
    pendingTasks,
    warnings,
  };
}
