import { PieError, errorMessage } from '../domain/errors.js';
import { withExtractionLease } from '../ingest/extraction-lease.js';
import type { CompactReport } from '../ports/forget-store.js';
import type { WorldStore } from '../ports/world-store.js';
import { buildForgetPlan, checkPlanId, type ForgetPlan } from './forget-plan.js';
import { nothingHolds, resolveForgetTarget, type ForgetKind } from './forget-target.js';

/**
 * Forgetting on request (issue #17): plan what goes, show it, and only then apply exactly that plan. Applying holds
 * the extraction lease, so no ingest is between reading the world and writing it (an ingest keeps conversations
 * and entity names in memory across its batches and would write them back); the removal is one transaction with
 * the plan re-read inside it; the file is then compacted so the removed bytes are gone.
 */

export interface ForgetRequest {
  store: WorldStore;
  /** An entity's name, alias or id; a conversation's id or exact title; or a text to find in turns. */
  target: string;
  kind?: ForgetKind | undefined;
}

export interface ForgetOutcome {
  plan: ForgetPlan;
  compact: CompactReport;
}

/** What a forget of `target` would remove and re-derive; writes nothing. */
export async function planForget(input: ForgetRequest): Promise<ForgetPlan> {
  const plan = await buildForgetPlan({ store: input.store, target: await resolveForgetTarget(input) });
  if (plan.target.kind === 'text' && Object.values(plan.counts).every((n) => n === 0)) {
    throw nothingHolds(plan.target.asked);
  }
  return plan;
}

/**
 * Applies the plan `planId` for `target` when planning it again (inside the transaction) gives the same plan;
 * otherwise nothing changes and the error is CONFLICT. Refuses (CONFLICT) while an extraction holds the lease.
 */
export async function applyForget(
  input: ForgetRequest & { planId: string; now: number; purpose: string },
): Promise<ForgetOutcome> {
  const planId = checkPlanId(input.planId);
  const { store } = input;
  const plan = await withExtractionLease(store, { purpose: input.purpose, waitMs: 0 }, () =>
    store.transaction(async (tx) => {
      const current = await planForget({ ...input, store: tx });
      if (current.id !== planId) {
        throw new PieError(
          'CONFLICT',
          `The memory changed since this forget was planned (plan ${planId}, now ${current.id}); nothing was forgotten: look at the new plan and confirm that one.`,
          { details: { planId: current.id } },
        );
      }
      await tx.forget.apply({ write: current.write, at: input.now });
      return current;
    }),
  );
  // After the lease is given back, so that its bookkeeping row goes with the rest of the old pages.
  return { plan, compact: await compactAfterForget(store) };
}

/** Rewrites the database file so nothing removed survives in it (also `pie forget --compact`). */
export async function compactAfterForget(store: WorldStore): Promise<CompactReport> {
  try {
    return await store.forget.compact();
  } catch (error) {
    throw new PieError(
      'DB_ERROR',
      `The rows are forgotten, but compacting the database failed (${errorMessage(error)}), so their bytes may remain in unused pages; close other PIE processes and run pie forget --compact.`,
      { cause: error },
    );
  }
}
