/**
 * Sleep tasks (KIP sleep spec, phase 2): work items that ingestion, queries and the cycle itself leave for the next
 * sleep cycle. The cycle changes a task's status through the journaled row access of `upkeep` (table
 * `sleep_tasks`), so `pie undo` puts tasks back exactly; this port only adds and reads them.
 */

export const SLEEP_TASK_ACTIONS = [
  /** An unresolved contradiction to reconcile (payload.transitionId). */
  'resolve_contradiction',
  /** Two entities that may be one (payload.otherId; subjects both ids). */
  'merge_duplicates',
  /** A fact recorded with low confidence (payload.factId). */
  'review_low_confidence',
  /** An important entity that has not been referenced for a long time. */
  'review_stale_entity',
] as const;
export type SleepTaskAction = (typeof SLEEP_TASK_ACTIONS)[number];

export const SLEEP_TASK_STATUSES = ['pending', 'in_progress', 'completed', 'dismissed', 'failed'] as const;
export type SleepTaskStatus = (typeof SLEEP_TASK_STATUSES)[number];

export type SleepTaskSource = 'ingest' | 'query' | 'sleep' | 'user';

export interface SleepTask {
  id: string;
  action: SleepTaskAction;
  subjectIds: string[];
  payload: Record<string, unknown>;
  /** 1–100, higher first. */
  priority: number;
  status: SleepTaskStatus;
  source: SleepTaskSource;
  /** Why it was left, in words. */
  reason: string;
  /** Cycles that looked at it without finishing it. */
  attempts: number;
  /** What the cycle did, in words (finished tasks). */
  result: string | null;
  /** One open task per key: the action and its subject. */
  dedupeKey: string;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
  /** After this time the cycle's TTL phase deletes the (finished) task. */
  expiresAt: number | null;
}

export type NewSleepTask = Pick<SleepTask, 'id' | 'action' | 'subjectIds' | 'priority' | 'source' | 'reason'> & {
  payload?: Record<string, unknown>;
  /** Default: the action and the sorted subject ids. */
  dedupeKey?: string;
  createdAt: number;
};

export interface SleepTaskRepo {
  /** Adds the task unless an open (pending or in-progress) task has the same key; true when it was added. */
  leave(input: NewSleepTask): Promise<boolean>;
  /** Tasks with these statuses (default pending), highest priority first, then oldest. */
  list(query?: { statuses?: readonly SleepTaskStatus[]; limit?: number }): Promise<SleepTask[]>;
  count(query?: { statuses?: readonly SleepTaskStatus[] }): Promise<number>;
  /** Finished tasks (completed, dismissed, failed) whose expiry is before `now`, oldest expiry first. */
  expired(query: { now: number; limit: number }): Promise<SleepTask[]>;
}

/** The key that keeps one open task per action and subject. */
export function sleepTaskKey(action: SleepTaskAction, subjectIds: readonly string[]): string {
  return `${action}:${[...subjectIds].sort().join(',')}`;
}
