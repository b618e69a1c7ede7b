import type { WorldStore } from '../ports/world-store.js';
import { dueOf, isOpen } from './commitments.js';
import type { SalienceResult } from './plan.js';

/** Targets a healthy world model should meet (KIP sleep spec: orphans and backlog kept small). */
export const HEALTH_TARGETS = {
  /** Share of entities with no current relationship. */
  maxIsolatedShare: 0.2,
  /** Contradictions left open. */
  maxUnresolvedContradictions: 20,
  /** Sleep tasks waiting for a cycle (KIP sleep spec: pending SleepTasks < 10). */
  maxPendingTasks: 10,
  /** Mean confidence of current facts (KIP sleep spec: average confidence > 0.6). */
  minMeanConfidence: 0.6,
  /** Open commitments past their due date (KIP sleep spec: 0). */
  maxOverdueCommitments: 0,
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
  /** Current facts and their mean confidence. */
  facts: number;
  meanConfidence: number;
  /** Open commitments whose due date has passed. */
  overdueCommitments: number;
  /** Targets missed, in words; empty when healthy. */
  warnings: string[];
}

async function overdueCommitments(store: WorldStore, now: number): Promise<number> {
  const list = await store.entities.list({ type: 'commitment', excludeMerged: true, limit: 10_000 });
  return list.filter((c) => {
    const due = dueOf(c.state);
    return isOpen(c.state.status) && due !== null && due < now;
  }).length;
}

export async function computeHealth(input: {
  store: WorldStore;
  salience: SalienceResult;
  now: number;
}): Promise<HealthReport> {
  const { store, salience } = input;
  const confidence = await store.facts.currentConfidence();
  const overdue = await overdueCommitments(store, input.now);
  const stats = await store.stats();
  const unresolved = await store.transitions.count({ unresolved: true });
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
  if (confidence.facts > 0 && confidence.mean < HEALTH_TARGETS.minMeanConfidence) {
    warnings.push(
      `Current facts average confidence ${confidence.mean.toFixed(2)} (target above ${HEALTH_TARGETS.minMeanConfidence}).`,
    );
  }
  if (overdue > HEALTH_TARGETS.maxOverdueCommitments) {
    warnings.push(`${overdue} open commitments are past due; pie sleep lists them (commitments sweep).`);
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
    facts: confidence.facts,
    meanConfidence: Math.round(confidence.mean * 1000) / 1000,
    overdueCommitments: overdue,
    warnings,
  };
}
