import type { JournalEntry, JournalRepo } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { fromJson, toJsonOrNull, type Statements } from './sql.js';

export interface JournalRow {
  run_id: string;
  seq: number;
  table_name: string;
  row_id: string;
  op: JournalEntry['op'];
  before: string | null;
  after: string | null;
  at: number;
}

/** `before`/`after` are stored as JSON; `undefined` comes back as null. */
function entryFromRow(row: JournalRow): JournalEntry {
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

export function createJournalRepo(s: Statements): SyncOf<JournalRepo> {
  return {
    append(e) {
      s.get(
        `INSERT INTO journal (run_id, seq, table_name, row_id, op, before, after, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(e.runId, e.seq, e.table, e.rowId, e.op, toJsonOrNull(e.before), toJsonOrNull(e.after), e.at);
    },

    forRun(runId) {
      const rows = s
        .get('SELECT run_id, seq, table_name, row_id, op, before, after, at FROM journal WHERE run_id = ? ORDER BY seq')
        .all(runId) as JournalRow[];
      return rows.map(entryFromRow);
    },
  };
}
