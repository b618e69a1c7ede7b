import {
  sleepTaskKey,
  type SleepTask,
  type SleepTaskAction,
  type SleepTaskRepo,
  type SleepTaskSource,
  type SleepTaskStatus,
} from '../../../ports/sleep-task-store.js';
import type { SyncOf } from './bind.js';
import { fromJson, toJson, type Statements } from './sql.js';

export interface TaskRow {
  id: string;
  action: string;
  subject_ids: string;
  payload: string;
  priority: number;
  status: string;
  source: string;
  reason: string;
  attempts: number;
  result: string | null;
  dedupe_key: string;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  expires_at: number | null;
}

export const ORDER = 'ORDER BY priority DESC, created_at, id';
export const FINISHED = ['completed', 'dismissed', 'failed'];

export function taskFromRow(row: TaskRow): SleepTask {
  return {
    id: row.id,
    action: row.action as SleepTaskAction,
    subjectIds: fromJson<string[]>(row.subject_ids, []),
    payload: fromJson<Record<string, unknown>>(row.payload, {}),
    priority: row.priority,
    status: row.status as SleepTaskStatus,
    source: row.source as SleepTaskSource,
    reason: row.reason,
    attempts: row.attempts,
    result: row.result,
    dedupeKey: row.dedupe_key,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
    expiresAt: row.expires_at,
  };
}

function statusFilter(statuses: readonly SleepTaskStatus[] | undefined): { sql: string; args: string[] } {
  const list = statuses === undefined || statuses.length === 0 ? ['pending'] : [...statuses];
  return { sql: `status IN (${list.map(() => '?').join(', ')})`, args: list };
}

export function createSleepTaskRepo(s: Statements): SyncOf<SleepTaskRepo> {
  return {
    leave(t) {
      const info = s
        .get(
          `INSERT INTO sleep_tasks (id, action, subject_ids, payload, priority, status, source, reason, dedupe_key,
             created_at, updated_at)
           VALUES (@id, @action, @subjects, @payload, @priority, 'pending', @source, @reason, @key, @at, @at)
           ON CONFLICT (dedupe_key) WHERE status IN ('pending', 'in_progress') DO NOTHING`,
        )
        .run({
          id: t.id,
          action: t.action,
          subjects: toJson(t.subjectIds),
          payload: toJson(t.payload ?? {}),
          priority: Math.max(1, Math.min(100, Math.round(t.priority))),
          source: t.source,
          reason: t.reason,
          key: t.dedupeKey ?? sleepTaskKey(t.action, t.subjectIds),
          at: t.createdAt,
        });
      return info.changes > 0;
    },

    list(query) {
      const f = statusFilter(query?.statuses);
      const rows = s
        .get(`SELECT * FROM sleep_tasks WHERE ${f.sql} ${ORDER} LIMIT ?`)
        .all(...f.args, query?.limit ?? -1) as TaskRow[];
      return rows.map(taskFromRow);
    },

    count(query) {
      const f = statusFilter(query?.statuses);
      return s.pluck(`SELECT count(*) FROM sleep_tasks WHERE ${f.sql}`).get(...f.args) as number;
    },

    expired({ now, limit }) {
      const rows = s
        .get(
          `SELECT * FROM sleep_tasks
            WHERE expires_at IS NOT NULL AND expires_at < ? AND status IN (${FINISHED.map(() => '?').join(', ')})
            ORDER BY expires_at, id LIMIT ?`,
        )
        .all(now, ...FINISHED, limit) as TaskRow[];
      return rows.map(taskFromRow);
    },
  };
}
