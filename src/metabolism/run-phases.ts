import type { LlmClient } from '../llm/index.js';
import type { WorldStore } from '../ports/world-store.js';
import type { RunJournal } from './journal.js';
import type { PhaseResult, SleepPhase } from './phase.js';
import type { SalienceResult, SleepScope } from './plan.js';

/** A phase's line in the sleep report. */
export interface PhaseReport {
  name: string;
  status: 'done' | 'planned' | 'skipped';
  changes: number;
  reason?: string;
  details?: Record<string, unknown>;
  issues?: string[];
}

/**
 * Runs the registered phases in order, each on the state the previous ones left (in a real run they share the
 * cycle's transaction and journal; in a dry run each reads the unchanged store, so a dry run's later phases do not
 * see the earlier phases' planned changes).
 */
export async function runPhases(input: {
  phases: readonly SleepPhase[];
  scope: SleepScope;
  store: WorldStore;
  journal: RunJournal | null;
  now: number;
  runId: string;
  newId: () => string;
  llm: LlmClient | null;
  salience: SalienceResult;
  onProgress?: ((text: string) => void) | undefined;
}): Promise<PhaseReport[]> {
  const reports: PhaseReport[] = [];
  for (const phase of input.phases) {
    if (!phase.scopes.includes(input.scope)) {
      reports.push({ name: phase.name, status: 'skipped', changes: 0, reason: `scope ${input.scope} does not run it` });
      continue;
    }
    input.onProgress?.(`${phase.name}: running`);
    const result = await phase.run({
      store: input.store,
      journal: input.journal,
      scope: input.scope,
      now: input.now,
      runId: input.runId,
      newId: input.newId,
      llm: input.llm,
      salience: input.salience,
      onProgress: input.onProgress,
    });
    reports.push(toReport(phase.name, result, input.journal === null));
  }
  return reports;
}

function toReport(name: string, r: PhaseResult, dryRun: boolean): PhaseReport {
  const report: PhaseReport = {
    name,
    status: r.skipped !== undefined ? 'skipped' : dryRun ? 'planned' : 'done',
    changes: r.changes,
  };
  if (r.skipped !== undefined) report.reason = r.skipped;
  if (r.details !== undefined) report.details = r.details;
  if (r.issues !== undefined && r.issues.length > 0) report.issues = r.issues;
  return report;
}
