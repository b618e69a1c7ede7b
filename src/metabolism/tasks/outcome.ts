import type { SleepTask } from '../../ports/sleep-task-store.js';
import { utcDate } from '../../domain/time.js';

/** After this many cycles that could not finish it, a task is closed as left for a person. */
export const MAX_ATTEMPTS = 3;

export interface SubjectState {
  name: string;
  tier: string;
  mergedInto: string | null;
  lastSeen: number;
  importance: number;
}

/** What the cycle knows about a task's subject when it looks at the task (read by the phase, judged here). */
export interface TaskEvidence {
  /** Subject entities as they are now; missing ones are absent. */
  entities: ReadonlyMap<string, SubjectState>;
  /** resolve_contradiction: the transition's resolver, null while open, undefined when the transition is gone. */
  resolvedBy?: string | null | undefined;
  /** review_low_confidence: the fact as it is now (undefined when gone). */
  fact?: { confidence: number; validTo: number | null; supersededBy: string | null } | undefined;
}

export interface TaskOutcome {
  status: 'pending' | 'completed' | 'dismissed' | 'failed';
  result: string;
}

function retry(task: SleepTask, open: string, closed: string): TaskOutcome {
  return task.attempts + 1 >= MAX_ATTEMPTS
    ? { status: 'failed', result: `${closed} after ${MAX_ATTEMPTS} cycles; left for a person.` }
    : { status: 'pending', result: open };
}

function mergeOutcome(task: SleepTask, ev: TaskEvidence): TaskOutcome {
  const [a = '', b = ''] = task.subjectIds;
  const ea = ev.entities.get(a);
  const eb = ev.entities.get(b);
  if (ea?.mergedInto === b || eb?.mergedInto === a) {
    return { status: 'completed', result: `Merged "${ea?.name ?? a}" and "${eb?.name ?? b}".` };
  }
  if (ea?.mergedInto || eb?.mergedInto) {
    return { status: 'dismissed', result: 'One of the two was merged into a third entity.' };
  }
  return retry(task, 'Not merged yet (not confirmed as the same).', 'Not confirmed as the same entity');
}

function lowConfidenceOutcome(ev: TaskEvidence): TaskOutcome {
  const f = ev.fact;
  if (f === undefined) return { status: 'dismissed', result: 'The fact no longer exists.' };
  if (f.validTo !== null) {
    return { status: 'completed', result: `Superseded${f.supersededBy ? ` by ${f.supersededBy}` : ''}.` };
  }
  if (f.confidence >= 0.5) return { status: 'completed', result: `Reinforced to ${f.confidence.toFixed(2)}.` };
  return { status: 'completed', result: `Kept at confidence ${f.confidence.toFixed(2)}; nothing contradicts it.` };
}

/**
 * The outcome of one sleep task, judged from the state the earlier phases of this cycle left (pure). A task whose
 * work another phase does (merging, contradiction supersession) is finished when that work shows and retried for a
 * few cycles otherwise; review tasks are finished by looking and recording what was found.
 */
export function taskOutcome(task: SleepTask, ev: TaskEvidence): TaskOutcome {
  if (task.subjectIds.some((id) => !ev.entities.has(id))) {
    return { status: 'dismissed', result: 'A subject entity no longer exists.' };
  }
  switch (task.action) {
    case 'merge_duplicates':
      return mergeOutcome(task, ev);
    case 'resolve_contradiction':
      if (ev.resolvedBy === undefined) return { status: 'dismissed', result: 'The contradiction no longer exists.' };
      if (ev.resolvedBy !== null) return { status: 'completed', result: `Resolved by ${ev.resolvedBy}.` };
      return retry(task, 'Still unresolved.', 'Still unresolved');
    case 'review_low_confidence':
      return lowConfidenceOutcome(ev);
    case 'review_stale_entity': {
      const e = ev.entities.get(task.subjectIds[0] ?? '');
      if (e === undefined) return { status: 'dismissed', result: 'The entity no longer exists.' };
      if (e.lastSeen > task.createdAt)
        return { status: 'completed', result: `Referenced again on ${utcDate(e.lastSeen)}.` };
      return {
        status: 'completed',
        result: `Reviewed: ${e.tier}, importance ${e.importance.toFixed(2)}, last seen ${utcDate(e.lastSeen)}.`,
      };
    }
  }
}
