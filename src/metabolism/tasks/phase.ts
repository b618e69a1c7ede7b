import type { RawRow } from '../../ports/maintenance-store.js';
import type { SleepTask } from '../../ports/sleep-task-store.js';
import type { WorldStore } from '../../ports/world-store.js';
import type { PhaseInput, PhaseResult, SleepPhase } from '../phase.js';
import { taskOutcome, type SubjectState, type TaskEvidence, type TaskOutcome } from './outcome.js';

const DAY = 86_400_000;
/** A finished task is kept this long (for `pie health` and the log), then the TTL phase deletes it. */
export const FINISHED_TASK_TTL_DAYS = 14;
/** Tasks looked at per cycle, highest priority first. */
export const TASKS_PER_CYCLE = 500;
/** Actions whose work only the full scope does (merging, contradiction supersession). */
const FULL_ONLY = new Set(['merge_duplicates', 'resolve_contradiction']);

async function evidence(store: WorldStore, task: SleepTask): Promise<TaskEvidence> {
  const entities = new Map<string, SubjectState>();
  for (const id of task.subjectIds) {
    const row = await store.upkeep.getRow({ table: 'entities', id });
    if (row === null) continue;
    entities.set(id, {
      name: String(row.name),
      tier: String(row.tier),
      mergedInto: row.merged_into === null ? null : String(row.merged_into),
      lastSeen: Number(row.last_seen),
      importance: Number(row.importance),
    });
  }
  const ev: TaskEvidence = { entities };
  const transitionId = task.payload.transitionId;
  if (task.action === 'resolve_contradiction' && typeof transitionId === 'string') {
    const row = await store.upkeep.getRow({ table: 'transitions', id: transitionId });
    ev.resolvedBy = row === null ? undefined : row.resolved_by === null ? null : String(row.resolved_by);
  }
  const factId = task.payload.factId;
  if (task.action === 'review_low_confidence' && typeof factId === 'string') {
    const row = await store.upkeep.getRow({ table: 'facts', id: factId });
    ev.fact =
      row === null
        ? undefined
        : {
            confidence: Number(row.confidence),
            validTo: row.valid_to === null ? null : Number(row.valid_to),
            supersededBy: row.superseded_by === null ? null : String(row.superseded_by),
          };
  }
  return ev;
}

function updatedRow(row: RawRow, outcome: TaskOutcome, now: number): RawRow {
  const finished = outcome.status !== 'pending';
  return {
    ...row,
    status: outcome.status,
    attempts: Number(row.attempts) + 1,
    result: outcome.result,
    updated_at: now,
    completed_at: finished ? now : null,
    expires_at: finished ? now + FINISHED_TASK_TTL_DAYS * DAY : null,
  };
}

/**
 * KIP sleep phase 2: the work items ingestion, queries and earlier cycles left. Runs after the phases that do the
 * work (merging, contradiction supersession), records each task's outcome and result, and gives finished tasks an
 * expiry for the TTL phase. In the quick scope, tasks that need the full cycle's work are left pending untouched.
 */
async function runTasks(input: PhaseInput): Promise<PhaseResult> {
  const tasks = (await input.store.tasks.list({ statuses: ['pending', 'in_progress'], limit: TASKS_PER_CYCLE })).filter(
    (t) => input.scope === 'full' || !FULL_ONLY.has(t.action),
  );
  const byOutcome: Record<string, number> = {};
  const byAction: Record<string, number> = {};
  const issues: string[] = [];
  for (const task of tasks) {
    const outcome = taskOutcome(task, await evidence(input.store, task));
    byOutcome[outcome.status] = (byOutcome[outcome.status] ?? 0) + 1;
    byAction[task.action] = (byAction[task.action] ?? 0) + 1;
    if (outcome.status === 'failed') issues.push(`${task.reason} — ${outcome.result}`);
    if (input.journal === null) continue;
    await input.journal.change('sleep_tasks', task.id, async () => {
      const row = await input.store.upkeep.getRow({ table: 'sleep_tasks', id: task.id });
      if (row !== null) {
        await input.store.upkeep.putRow({
          table: 'sleep_tasks',
          id: task.id,
          row: updatedRow(row, outcome, input.now),
        });
      }
    });
  }
  const left = await input.store.tasks.count({ statuses: ['pending', 'in_progress'] });
  return {
    changes: tasks.length,
    details: { examined: tasks.length, byAction, byOutcome, pendingBefore: left },
    issues,
  };
}

export const sleepTasksPhase: SleepPhase = { name: 'sleep tasks', scopes: ['quick', 'full'], run: runTasks };
