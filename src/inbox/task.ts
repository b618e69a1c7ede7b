import { applyAuditFixes, auditWorld } from '../audit/audit.js';
import type { FindingKind } from '../audit/detectors.js';
import { PieError } from '../domain/errors.js';
import { isOpen } from '../metabolism/commitments.js';
import { journaledStateChange } from '../metabolism/state-change.js';
import { recordTaskOutcome } from '../metabolism/tasks/finish.js';
import { ACTIONABLE_TASK_STATUSES, inboxRun, liveEntity, type DecisionInput, type InboxDecision } from './run.js';

export type TaskChoice = 'done' | 'dismiss';

/**
 * A person closes a sleep task: done (they looked at it: completed) or dismissed (not worth doing), through the
 * same journaled row update the sleep cycle records a task's outcome with. Finished tasks expire like the cycle's.
 */
export async function decideTask(
  input: DecisionInput & { taskId: string; choice: TaskChoice },
): Promise<InboxDecision> {
  return inboxRun({
    ...input,
    action: `task:${input.choice}`,
    work: async (tx, journal) => {
      const row = await tx.upkeep.getRow({ table: 'sleep_tasks', id: input.taskId });
      if (row === null) throw new PieError('NOT_FOUND', `No sleep task "${input.taskId}"; reload the inbox.`);
      if (!(ACTIONABLE_TASK_STATUSES as readonly unknown[]).includes(row.status)) {
        throw new PieError('CONFLICT', `This sleep task is already ${String(row.status)}; reload the inbox.`);
      }
      const outcome =
        input.choice === 'done'
          ? ({ status: 'completed', result: 'Reviewed by a person.' } as const)
          : ({ status: 'dismissed', result: 'Dismissed by a person.' } as const);
      await recordTaskOutcome({ store: tx, journal, taskId: input.taskId, outcome, now: input.now });
      return `Sleep task ${input.choice === 'done' ? 'marked done' : 'dismissed'}: ${String(row.reason)}.`;
    },
  });
}

export type CommitmentChoice = 'kept' | 'dropped';
/** The status a person's answer gives a commitment (the sweep writes 'fulfilled' and 'expired'). */
const COMMITMENT_STATUS: Record<CommitmentChoice, string> = { kept: 'fulfilled', dropped: 'dropped' };

/** A person says an open commitment was kept or dropped: its status changes as the commitments sweep changes it. */
export async function decideCommitment(
  input: DecisionInput & { entityId: string; choice: CommitmentChoice },
): Promise<InboxDecision> {
  return inboxRun({
    ...input,
    action: `commitment:${input.choice}`,
    work: async (tx, journal) => {
      const entity = await liveEntity(tx, input.entityId);
      if (entity.type !== 'commitment') throw new PieError('INVALID_ARGUMENT', `"${entity.name}" is not a commitment.`);
      if (!isOpen(entity.state.status)) {
        throw new PieError('CONFLICT', `"${entity.name}" is no longer open (${String(entity.state.status)}).`);
      }
      const value = COMMITMENT_STATUS[input.choice];
      await journaledStateChange({
        tx,
        journal,
        newId: input.newId,
        entity,
        attribute: 'status',
        value,
        time: input.now,
        now: input.now,
        reason: `a person marked it ${input.choice}`,
        confidence: 1,
        episodeId: null,
      });
      return `"${entity.name}" marked ${input.choice}.`;
    },
  });
}

/**
 * Applies the safe fix of one audit finding (what `pie audit --fix` would do for it): the audit runs again and the
 * finding of this kind about this entity, if it is still there and safe, is fixed as a run of kind `audit`.
 */
export async function applyAuditFinding(
  input: DecisionInput & { kind: FindingKind; entityId: string },
): Promise<InboxDecision> {
  const report = await auditWorld({ store: input.store, now: input.now });
  const finding = report.findings.find((f) => f.kind === input.kind && f.entity.id === input.entityId);
  if (finding === undefined) {
    throw new PieError('CONFLICT', 'The audit no longer finds this; reload the inbox.');
  }
  if (!finding.safe) {
    throw new PieError('INVALID_ARGUMENT', `This finding has no safe fix: ${finding.why}.`);
  }
  const fix = await applyAuditFixes({
    store: input.store,
    findings: [finding],
    now: input.now,
    runId: input.runId,
    newId: input.newId,
  });
  const a = fix.applied;
  const what = a.archived > 0 ? 'archived' : a.retyped > 0 ? 'retyped' : a.merged > 0 ? 'merged' : 'unchanged';
  return { runId: fix.runId, kind: 'audit', message: `"${finding.entity.name}" ${what}.`, journaled: fix.journaled };
}
