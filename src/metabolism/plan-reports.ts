import type { Procedure } from '../domain/world.js';
import type { DecayChange } from './decay-plan.js';
import type { SalienceResult, SleepScope } from './plan.js';
import type { SleepPhase } from './phase.js';
import type { PhaseReport } from './run-phases.js';

/** The report lines of the plan a cycle makes before its phases (pure builders; sleep.ts runs the plan). */

/** Entities a report lists by id per phase, at most (its counts cover them all). */
const REPORT_MOVES = 200;

/** The report lines of what a cycle plans before its phases (salience, tiers, decay, procedure mining), in order. */
export const PLAN_PHASE_NAMES = ['salience', 'tiers', 'confidence decay', 'procedures'] as const;

/** Every phase a cycle reports, in report order: the plan's four, then `phases`. */
export function sleepPhaseNames(phases: readonly SleepPhase[]): string[] {
  return [...PLAN_PHASE_NAMES, ...phases.map((p) => p.name)];
}

interface ReportInput {
  scope: SleepScope;
  dryRun: boolean;
}

function tierCounts(salience: SalienceResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of salience.tiers) counts[`${c.from}→${c.to}`] = (counts[`${c.from}→${c.to}`] ?? 0) + 1;
  return counts;
}

/** The salience and tiers lines (`added`: summary or archival transitions written for the tier moves). */
export function salienceReports(o: ReportInput, s: SalienceResult, added: number): PhaseReport[] {
  const status = o.dryRun ? 'planned' : 'done';
  return [
    {
      name: 'salience',
      status,
      changes: s.importance.length,
      details: { iterations: s.iterations, converged: s.converged, entities: s.nodes.length },
    },
    o.scope === 'daydream'
      ? { name: 'tiers', status: 'skipped', changes: 0, reason: 'daydream scores salience only' }
      : {
          name: 'tiers',
          status,
          changes: s.tiers.length,
          details: {
            moves: tierCounts(s),
            historyTransitionsAdded: added,
            entities: s.tiers.map((t) => t.entityId),
            moved: s.tiers.slice(0, REPORT_MOVES).map((t) => ({ entityId: t.entityId, from: t.from, to: t.to })),
          },
        },
  ];
}

export function decayReport(o: ReportInput, decay: readonly DecayChange[]): PhaseReport {
  if (o.scope !== 'full') {
    return { name: 'confidence decay', status: 'skipped', changes: 0, reason: `scope ${o.scope} does not decay` };
  }
  const entities = [...new Set(decay.map((c) => c.entityId))];
  return {
    name: 'confidence decay',
    status: o.dryRun ? 'planned' : 'done',
    changes: decay.length,
    details: { facts: decay.length, entities: entities.length, decayed: entities.slice(0, REPORT_MOVES) },
  };
}

export function proceduresReport(o: ReportInput, procedures: { upsert: Procedure[]; retire: string[] }): PhaseReport {
  if (o.scope !== 'full') {
    return { name: 'procedures', status: 'skipped', changes: 0, reason: `scope ${o.scope} does not mine procedures` };
  }
  return {
    name: 'procedures',
    status: o.dryRun ? 'planned' : 'done',
    changes: procedures.upsert.length + procedures.retire.length,
    details: { upserted: procedures.upsert.map((p) => p.id), retired: procedures.retire },
  };
}
