import type { PhaseInput, PhaseResult, SleepPhase } from './phase.js';

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
export async function runPhases(
  input: PhaseInput & {
    phases: readonly SleepPhase[];
    /** Each phase's report as soon as it is ready (awaited before the next phase runs). */
    onReport?: (report: PhaseReport) => Promise<void> | void;
  },
): Promise<PhaseReport[]> {
  const reports: PhaseReport[] = [];
  for (const phase of input.phases) {
    if (!phase.scopes.includes(input.scope)) {
      const skipped: PhaseReport = {
        name: phase.name,
        status: 'skipped',
        changes: 0,
        reason: `scope ${input.scope} does not run it`,
      };
      reports.push(skipped);
      await input.onReport?.(skipped);
      continue;
    }
    input.onProgress?.(`${phase.name}: running`);
    const { phases: _all, onReport: _report, ...phaseInput } = input;
    const report = toReport(phase.name, await phase.run(phaseInput), input.journal === null);
    reports.push(report);
    await input.onReport?.(report);
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
