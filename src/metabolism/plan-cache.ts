import type { WorldStore } from '../ports/world-store.js';
import type { SleepScope } from './plan.js';
import { sleepPreviewId } from './preview-id.js';
import type { SleepReport } from './sleep.js';

/** A sleep dry run kept for reuse: the memory's revision it was planned from, and its preview id. */
export interface KeptPlan {
  report: SleepReport;
  /** WorldStore.revision read before and after planning (the same both times, or the plan is not kept). */
  revision: string;
  previewId: string;
}

/** How long a kept plan is shown as the preview: older plans are planned again (decay and tiers move with time). */
export const KEPT_PLAN_MAX_AGE_MS = 10 * 60_000;

/**
 * The latest sleep plan of each scope, shown again as the preview while it is still the memory's (docs/web.md
 * "Sleep"): planned from the revision the memory has now, at most KEPT_PLAN_MAX_AGE_MS ago, and not after `now` (a
 * clock set back does not get a plan from its future). Applying a kept plan's preview id while the revision is
 * unchanged needs no second planning to check it. In memory, per server; never written anywhere.
 */
export class SleepPlanCache {
  private readonly plans = new Map<SleepScope, KeptPlan>();

  /**
   * A dry run's plan of the memory at `revision`, with its preview id (over the world's counts read now), kept in
   * place of the scope's last one when the memory is still at that revision (nothing was written while it was
   * planned). The plan made last wins, even for a clock set back.
   */
  async keepIfUnchanged(store: WorldStore, report: SleepReport, revision: string): Promise<KeptPlan> {
    const plan = { report, revision, previewId: sleepPreviewId(report, await store.stats()) };
    if ((await store.revision()) === revision) this.plans.set(report.scope, plan);
    return plan;
  }

  /** The scope's plan when it may be shown as the preview at `now` of a memory at `revision`; else null. */
  fresh(scope: SleepScope, revision: string, now: number): KeptPlan | null {
    const plan = this.plans.get(scope);
    if (!plan || plan.revision !== revision) return null;
    const age = now - plan.report.now;
    return age >= 0 && age <= KEPT_PLAN_MAX_AGE_MS ? plan : null;
  }

  /** The kept plan a preview id names, when the memory is still at its revision; else null. */
  named(previewId: string, revision: string): KeptPlan | null {
    for (const plan of this.plans.values()) {
      if (plan.previewId === previewId && plan.revision === revision) return plan;
    }
    return null;
  }
}
