import type { MaintenanceLogEntry, MaintenanceLogRepo } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { fromJson, limitParam, notFound, toJson, type Statements } from './sql.js';

interface LogRow {
  id: string;
  kind: string;
  started_at: number;
  finished_at: number | null;
  status: string;
  report: string;
}

function entryFromRow(row: LogRow): MaintenanceLogEntry {
  return {
    id: row.id,
    kind: row.kind,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: row.status,
    report: fromJson<Record<string, unknown>>(row.report, {}),
  };
}

export function createMaintenanceLogRepo(s: Statements): SyncOf<MaintenanceLogRepo> {
  return {
    append(e) {
      s.get(
        `INSERT INTO maintenance_log (id, kind, started_at, finished_at, status, report) VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(e.id, e.kind, e.startedAt, e.finishedAt, e.status, toJson(e.report));
    },

    update({ id, finishedAt, status, report }) {
      const result = s
        .get('UPDATE maintenance_log SET finished_at = ?, status = ?, report = ? WHERE id = ?')
        .run(finishedAt, status, toJson(report), id);
      if (result.changes === 0) throw notFound('maintenance run', id);
    },

    /** Newest first, in the order the runs were recorded (rowid), whatever clock each was given. */
    list(limit) {
      const rows = s
        .get(
          `SELECT id, kind, started_at, finished_at, status, report FROM maintenance_log
           ORDER BY rowid DESC LIMIT ?`,
        )
        .all(limitParam(limit) ?? -1) as LogRow[];
      return rows.map(entryFromRow);
    },
    lastCompleted({ kind, scope }) {
      const row = s
        .get(
          `SELECT id, kind, started_at, finished_at, status, report FROM maintenance_log
           WHERE kind = @kind AND status = 'completed'
             AND (@scope IS NULL OR json_extract(report, '$.scope') = @scope)
           ORDER BY rowid DESC LIMIT 1`,
        )
        .get({ kind, scope: scope ?? null }) as LogRow | undefined;
      return row ? entryFromRow(row) : null;
    },
  };
}
