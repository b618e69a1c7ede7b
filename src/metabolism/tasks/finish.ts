import type { RawRow } from '../../ports/maintenance-store.js';
import type { RunJournal } from '../journal.js';
import type { PhaseInput } from '../phase.js';
import type { TaskOutcome } from './outcome.js';
import { DAY_MS } from '../../domain/time.js';

/** A finished task is kept this long (for `pie health` and the log), then the TTL phase deletes it. */
export const FINISHED_TASK_TTL_DAYS = 14;

/** The task row after a cycle looked at it: one more attempt, its result, and an expiry once finished. */
export function taskRowAfter(row: RawRow, outcome: TaskOutcome, now: number): RawRow {
  const finished = outcome.status !== 'pending';
  return {
    ...row,
    status: outcome.status,
    attempts: Number(row.attempts) + 1,
    result: outcome.result,
    updated_at: now,
    completed_at: finished ? now : null,
    expires_at: finished ? now + FINISHED_TASK_TTL_DAYS * DAY_MS : null,
  };
}

/** Records a task's outcome through the journal (a phase that settles a task's question itself calls this). */
export async function recordTaskOutcome(input: {
  store: PhaseInput['store'];
  journal: RunJournal;
  taskId: string;
  outcome: TaskOutcome;
  now: number;
}): Promise<void> {
  await input.journal.change('sleep_tasks', input.taskId, async () => {
    const row = await input.store.upkeep.getRow({ table: 'sleep_tasks', id: input.taskId });
    if (row !== null) {
      await input.store.upkeep.putRow({
        table: 'sleep_tasks',
        id: input.taskId,
        row: taskRowAfter(row, input.outcome, input.now),
      });
    }
  });
}
