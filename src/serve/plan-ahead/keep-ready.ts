import { errorMessage } from '../../domain/errors.js';
import { EXTRACTION_LEASE, SLEEP_LEASE } from '../../ingest/lease-rules.js';
import { KEPT_PLAN_MAX_AGE_MS, type SleepPlanCache } from '../../metabolism/plan-cache.js';
import type { Clock } from '../../ports/clock.js';
import type { WorldStore } from '../../ports/world-store.js';
import type { ThreadPlanner } from './thread.js';

/** How often the memory's revision is looked at (one cheap read). */
export const PLAN_AHEAD_EVERY_MS = 2_000;

export interface PlanAhead {
  /** Resolves when no plan is being made (tests wait for the plan to be kept). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Keeps a full sleep's preview ready (docs/web.md "Sleep"): every PLAN_AHEAD_EVERY_MS the memory's revision is
 * read; once it has stayed the same for a whole interval (a memory being written to is left alone until it is
 * still) and no kept plan of it is younger than half KEPT_PLAN_MAX_AGE_MS, a dry run is planned in a thread
 * (`plan`) and kept when the memory did not change meanwhile. Nothing is planned while an extraction or a sleep
 * holds its lease (the memory is about to change, and a long read would only hold the write-ahead log back). One
 * plan at a time; a plan that failed is tried again only after the memory changes. `stop` ends the running thread.
 */
export function startPlanAhead(input: {
  store: WorldStore;
  plans: SleepPlanCache;
  clock: Clock;
  plan: ThreadPlanner;
  newId: () => string;
  log: (message: string) => void;
  everyMs?: number;
  /** Wall-clock ms, for the leases' expiry (leases are about real time, never the configured "now"). */
  wallClock?: () => number;
}): PlanAhead {
  const { store, plans, clock } = input;
  const abort = new AbortController();
  let seen: string | null = null;
  let failedAt: string | null = null;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let lastWarning = '';
  // A memory that cannot be read (closed, locked for long) would say so every interval: once is enough.
  const warn = (error: unknown): void => {
    const message = `checking the memory for a sleep plan failed: ${errorMessage(error)}`;
    if (message !== lastWarning) input.log(message);
    lastWarning = message;
  };

  const leaseHeld = async (): Promise<boolean> => {
    const wall = (input.wallClock ?? Date.now)();
    for (const name of [EXTRACTION_LEASE, SLEEP_LEASE]) {
      const lease = await store.leases.get(name);
      if (lease && lease.expiresAt > wall) return true;
    }
    return false;
  };

  const planNow = async (revision: string, now: number): Promise<void> => {
    const report = await input.plan({ scope: 'full', now, runId: `sleep-${input.newId()}`, signal: abort.signal });
    await plans.keepIfUnchanged(store, report, revision);
  };

  const tick = async (): Promise<void> => {
    if (running || abort.signal.aborted) return;
    const revision = await store.revision();
    const now = clock.now();
    if (revision !== seen) {
      seen = revision;
      return;
    }
    if (failedAt === revision) return;
    const kept = plans.fresh('full', revision, now);
    if (kept && now - kept.report.now < KEPT_PLAN_MAX_AGE_MS / 2) return;
    if (await leaseHeld()) return;
    running = planNow(revision, now)
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        failedAt = revision;
        input.log(`planning a sleep ahead failed (${errorMessage(error)}); previews plan on request.`);
      })
      .finally(() => {
        running = null;
      });
  };

  const loop = (): void => {
    if (abort.signal.aborted) return;
    timer = setTimeout(() => {
      tick().catch(warn).finally(loop);
    }, input.everyMs ?? PLAN_AHEAD_EVERY_MS);
  };
  // The first look is at once: a memory that has been still since the server started is planned one interval later.
  tick().catch(warn).finally(loop);

  return {
    idle: async () => {
      await running;
    },
    stop: async () => {
      abort.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
