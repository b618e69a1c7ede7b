import type { WorldStore } from '../ports/world-store.js';
import type { SalienceResult } from './plan.js';

/** Targets a healthy world model should meet (KIP sleep spec: orphans and backlog kept small). */
export const HEALTH_TARGETS = {
  /** Share of entities with no current relationship. */
  maxIsolatedShare: 0.2,
  /** Contradictions left open. */
  maxUnresolvedContradictions: 20,
} as const;

export interface HealthReport {
  entities: number;
  byTier: Record<string, number>;
  meanImportance: number;
  isolated: number;
  isolatedShare: number;
  unresolvedContradictions: number;
  procedures: number;
  /** Targets missed, in words; empty when healthy. */
  warnings: string[];
}

export async function computeHealth(input: { store: WorldStore; salience: SalienceResult }): Promise<HealthReport> {
  const { store, salience } = input;
  const stats = await store.stats();
  const unresolved = (await store.transitions.list({ unresolved: true })).length;
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
  return {
    entities,
    byTier: stats.entitiesByTier,
    meanImportance: salience.meanImportance,
    isolated: salience.isolated,
    isolatedShare,
    unresolvedContradictions: unresolved,
    procedures: stats.procedures,
    warnings,
  };
}
