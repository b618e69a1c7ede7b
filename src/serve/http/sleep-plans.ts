import type { KeptPlan } from '../../metabolism/plan-cache.js';
import type { SleepScope } from '../../metabolism/plan.js';
import type { PhaseReport } from '../../metabolism/run-phases.js';
import { runSleep } from '../../metabolism/sleep.js';
import type { HttpDeps } from './deps.js';

/** A sleep preview and where it came from: kept (planned earlier from the same memory) or planned for this call. */
export interface PlannedPreview extends KeptPlan {
  kept: boolean;
}

/**
 * The preview of a sleep of `scope`: the kept plan when it may still be shown (SleepPlanCache.fresh; `replan`
 * skips it), else a dry run planned now — kept for the next preview when the memory did not change while it was
 * planned. `onPhase` gets each phase as it is planned (a kept plan's all at once).
 */
export async function planSleepPreview(input: {
  deps: HttpDeps;
  scope: SleepScope;
  replan?: boolean;
  runId: string;
  onStart?: (plan: { now: number; kept: boolean; runId: string }) => Promise<void>;
  onPhase?: (phase: PhaseReport) => Promise<void>;
}): Promise<PlannedPreview> {
  const { deps, scope } = input;
  const now = deps.clock.now();
  const revision = await deps.store.revision();
  const kept = input.replan ? null : deps.plans.fresh(scope, revision, now);
  if (kept) {
    await input.onStart?.({ now: kept.report.now, kept: true, runId: kept.report.runId });
    for (const phase of kept.report.phases) await input.onPhase?.(phase);
    return { ...kept, kept: true };
  }
  await input.onStart?.({ now, kept: false, runId: input.runId });
  const report = await runSleep({
    store: deps.store,
    scope,
    dryRun: true,
    now,
    runId: input.runId,
    newId: deps.newId,
    llm: (await deps.queryModel())?.client ?? null,
    onPhase: input.onPhase,
  });
  return { ...(await deps.plans.keepIfUnchanged(deps.store, report, revision)), kept: false };
}
