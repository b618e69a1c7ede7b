import type { SleepTask } from '../../ports/sleep-task-store.js';
import type { WorldStore } from '../../ports/world-store.js';
import type { PhaseInput, PhaseResult, SleepPhase } from '../phase.js';
import { recordTaskOutcome } from './finish.js';
import { taskOutcome, type SubjectState, type TaskEvidence } from './outcome.js';

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
  let changed = 0;
  for (const task of tasks) {
    const outcome = taskOutcome(task, await evidence(input.store, task));
    // A task a run at this instant (or later) already tried and left open: trying again now learns nothing, and
    // counting the attempt would keep a sleep at a fixed "now" from ever reaching its fixed point.
    if (outcome.status === 'pending' && task.attempts > 0 && task.updatedAt >= input.now) continue;
    changed += 1;
    byOutcome[outcome.status] = (byOutcome[outcome.status] ?? 0) + 1;
    byAction[task.action] = (byAction[task.action] ?? 0) + 1;
    if (outcome.status === 'failed') issues.push(`${task.reason} — ${outcome.result}`);
    if (input.journal === null) continue;
    await recordTaskOutcome({ store: input.store, journal: input.journal, taskId: task.id, outcome, now: input.now });
  }
  const left = await input.store.tasks.count({ statuses: ['pending', 'in_progress'] });
  return {
    changes: changed,
    details: { examined: tasks.length, byAction, byOutcome, stillPending: left },
    issues,
  };
}

export const sleepTasksPhase: SleepPhase = { name: 'sleep tasks', scopes: ['quick', 'full'], run: runTasks };
