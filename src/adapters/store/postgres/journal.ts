import type {
  JournalEntry,
  JournalRepo,
  MaintenanceLogEntry,
  MaintenanceLogRepo,
  TierMove,
} from '../../../ports/world-store.js';
import { fromJson, limitParam, notFound, toJson, toJsonOrNull, type Sql } from './sql.js';
import { type JournalRow } from '../sqlite/journal.js';

function journalFromRow(row: JournalRow): JournalEntry {
  return {
    runId: row.run_id,
    seq: row.seq,
    table: row.table_name,
    rowId: row.row_id,
    op: row.op,
    before: fromJson<unknown>(row.before, null),
    after: fromJson<unknown>(row.after, null),
    at: row.at,
  };
}

export function createJournalRepo(sql: Sql): JournalRepo {
  return {
    async append(e) {
      await sql.run(
        `INSERT INTO journal (run_id, seq, table_name, row_id, op, before, after, at)
         VALUES (@runId, @seq, @table, @rowId, @op, @before, @after, @at)`,
        {
          runId: e.runId,
          seq: e.seq,
          table: e.table,
          rowId: e.rowId,
          op: e.op,
          before: toJsonOrNull(e.before),
          after: toJsonOrNull(e.after),
          at: e.at,
        },
      );
    },

    async forRun(runId) {
      const rows = await sql.all<JournalRow>(
        'SELECT run_id, seq, table_name, row_id, op, before, after, at FROM journal WHERE run_id = @runId ORDER BY seq',
        { runId },
      );
      return rows.map(journalFromRow);
    },

    async tierMoves() {
      const rows = await sql.all<TierMove>(TIER_MOVES, {});
      return rows.map((r) => ({ ...r, at: Number(r.at) }));
    },
  };
}

/**
 * The tier moves of the runs in effect (completed), in recording order (ord), through the partial index
 * journal_tier_moves (its condition repeated term for term).
 */
const TIER_MOVES = `
SELECT j.row_id AS "entityId", j.before::jsonb ->> 'tier' AS "from", j.after::jsonb ->> 'tier' AS "to", j.at
FROM journal j JOIN maintenance_log r ON r.id = j.run_id AND r.status = 'completed'
WHERE j.table_name = 'entities' AND j.op = 'update'
  AND (j.before::jsonb ->> 'tier') IS DISTINCT FROM (j.after::jsonb ->> 'tier')
ORDER BY r.ord, j.seq`;

interface LogRow {
  id: string;
  kind: string;
  started_at: number;
  finished_at: number | null;
  status: string;
  report: string;
}

function logFromRow(row: LogRow): MaintenanceLogEntry {
  return {
    id: row.id,
    kind: row.kind,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: row.status,
    report: fromJson<Record<string, unknown>>(row.report, {}),
  };
}

export function createMaintenanceLogRepo(sql: Sql): MaintenanceLogRepo {
  return {
    async append(e) {
      await sql.run(
        `INSERT INTO maintenance_log (id, kind, started_at, finished_at, status, report)
         VALUES (@id, @kind, @startedAt, @finishedAt, @status, @report)`,
        { ...e, report: toJson(e.report) },
      );
    },

    async update({ id, finishedAt, status, report }) {
      const n = await sql.run(
        'UPDATE maintenance_log SET finished_at = @finishedAt, status = @status, report = @report WHERE id = @id',
        { id, finishedAt, status, report: toJson(report) },
      );
      if (n === 0) throw notFound('maintenance run', id);
    },

    /** Newest first, in the order the runs were recorded (the identity column `ord`). */
    async list(limit) {
      const rows = await sql.all<LogRow>(
        `SELECT id, kind, started_at, finished_at, status, report FROM maintenance_log ORDER BY ord DESC LIMIT @limit`,
        { limit: limitParam(limit) },
      );
      return rows.map(logFromRow);
    },

    async lastCompleted({ kind, scope }) {
      const rows = await sql.all<LogRow>(
        `SELECT id, kind, started_at, finished_at, status, report FROM maintenance_log
         WHERE kind = @kind AND status = 'completed'
           AND (CAST(@scope AS text) IS NULL OR report::jsonb ->> 'scope' = @scope)
         ORDER BY ord DESC LIMIT 1`,
        { kind, scope: scope ?? null },
      );
      return rows[0] ? logFromRow(rows[0]) : null;
    },
  };
}
