import { PieError } from '../domain/errors.js';
import type { Entity } from '../domain/world.js';
import { journaledRun, type RunJournal } from '../metabolism/journal.js';
import { recordTaskOutcome } from '../metabolism/tasks/finish.js';
import type { TaskOutcome } from '../metabolism/tasks/outcome.js';
import type { SleepTask } from '../ports/sleep-task-store.js';
import type { WorldStore } from '../ports/world-store.js';

/**
 * The inbox: the maintenance that needs a person (open contradictions, merge pairs left for review, sleep tasks,
 * audit findings). Each decision is one maintenance run of this kind, journaled like a sleep, so `pie undo <runId>`
 * (or the inbox's Undo) puts every row back.
 */
export const INBOX_LOG_KIND = 'inbox';

/** Tasks a person may still act on: open ones, and those the cycle gave up on ("left for a person"). */
export const ACTIONABLE_TASK_STATUSES = ['pending', 'in_progress', 'failed'] as const;
/** Tasks read when looking for the ones a decision settles. */
const TASKS_READ = 10_000;

/** What a decision did: its run (undo it with `pie undo <runId>`), in words. */
export interface InboxDecision {
  runId: string;
  /** The maintenance log kind of the run (`inbox`, or `audit` for an audit fix). */
  kind: string;
  message: string;
  journaled: number;
}

export interface DecisionInput {
  store: WorldStore;
  now: number;
  runId: string;
  newId: () => string;
}

/** One decision as one journaled run of kind `inbox`; `work` returns what it did, in words. */
export async function inboxRun(
  input: DecisionInput & { action: string; work: (tx: WorldStore, journal: RunJournal) => Promise<string> },
): Promise<InboxDecision> {
  const report = await journaledRun({
    store: input.store,
    runId: input.runId,
    kind: INBOX_LOG_KIND,
    now: input.now,
    work: async (tx, journal) => ({ action: input.action, message: await input.work(tx, journal) }),
  });
  return { runId: input.runId, kind: INBOX_LOG_KIND, message: report.message, journaled: report.journaled };
}

/** Records `outcome` on every actionable task `match` picks (journaled); returns how many. */
export async function settleTasks(input: {
  tx: WorldStore;
  journal: RunJournal;
  now: number;
  match: (task: SleepTask) => boolean;
  outcome: TaskOutcome;
}): Promise<number> {
  const tasks = (await input.tx.tasks.list({ statuses: ACTIONABLE_TASK_STATUSES, limit: TASKS_READ })).filter(
    input.match,
  );
  for (const task of tasks) {
    await recordTaskOutcome({
      store: input.tx,
      journal: input.journal,
      taskId: task.id,
      outcome: input.outcome,
      now: input.now,
    });
  }
  return tasks.length;
}

/** The entity, which must exist and not have been merged into another. */
export async function liveEntity(tx: WorldStore, id: string): Promise<Entity> {
  const entity = await tx.entities.get(id);
  if (entity === null) throw new PieError('NOT_FOUND', `No entity with id "${id}"; reload the inbox.`);
  const row = await tx.upkeep.getRow({ table: 'entities', id });
  if (row !== null && row.merged_into !== null && row.merged_into !== undefined) {
    throw new PieError('CONFLICT', `"${entity.name}" has already been merged into another entity; reload the inbox.`);
  }
  return entity;
}

/** `"value"` for a state value, `nothing` for none. */
export function quoted(value: unknown): string {
  return value === undefined || value === null ? 'nothing' : `"${String(value)}"`;
}
