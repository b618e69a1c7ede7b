import { FINISHED, ORDER, taskFromRow, type TaskRow } from '../sqlite/sleep-tasks.js';
import { toJson, wholeTime, type Sql } from './sql.js';
import { sleepTaskKey, type SleepTaskRepo, type SleepTaskStatus } from '../../../ports/sleep-task-store.js';

const COLUMNS = `id, action, subject_ids, payload, priority, status, source, reason, attempts, result, dedupe_key,
  created_at, updated_at, completed_at, expires_at`;

function statuses(list: readonly SleepTaskStatus[] | undefined): string[] {
  return list === undefined || list.length === 0 ? ['pending'] : [...list];
}

export function createSleepTaskRepo(sql: Sql): SleepTaskRepo {
  return {
    async leave(t) {
      const n = await sql.run(
        `INSERT INTO sleep_tasks (id, action, subject_ids, payload, priority, status, source, reason, dedupe_key,
           created_at, updated_at)
         VALUES (@id, @action, @subjects, @payload, @priority, 'pending', @source, @reason, @key, @at, @at)
         ON CONFLICT (dedupe_key) WHERE status IN ('pending', 'in_progress') DO NOTHING`,
        {
          id: t.id,
          action: t.action,
          subjects: toJson(t.subjectIds),
          payload: toJson(t.payload ?? {}),
          priority: Math.max(1, Math.min(100, Math.round(t.priority))),
          source: t.source,
          reason: t.reason,
          key: t.dedupeKey ?? sleepTaskKey(t.action, t.subjectIds),
          at: t.createdAt,
        },
      );
      return n > 0;
    },

    async list(query) {
      const rows = await sql.all<TaskRow>(
        `SELECT ${COLUMNS} FROM sleep_tasks WHERE status = ANY(@statuses::text[]) ${ORDER} LIMIT @limit`,
        { statuses: statuses(query?.statuses), limit: query?.limit ?? null },
      );
      return rows.map(taskFromRow);
    },

    async count(query) {
      const row = await sql.one<{ n: number }>(
        'SELECT count(*) AS n FROM sleep_tasks WHERE status = ANY(@statuses::text[])',
        { statuses: statuses(query?.statuses) },
      );
      return Number(row?.n ?? 0);
    },

    async expired({ now, limit }) {
      const rows = await sql.all<TaskRow>(
        `SELECT ${COLUMNS} FROM sleep_tasks
         WHERE expires_at IS NOT NULL AND expires_at < @now AND status = ANY(@finished::text[])
         ORDER BY expires_at, id LIMIT @limit`,
        { now: wholeTime(now, 'ceil'), finished: FINISHED, limit },
      );
      return rows.map(taskFromRow);
    },
  };
}
