import type { JournalEntry, JournalRepo, TierMove } from '../../../ports/world-store.js';
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

    tierMoves() {
      // Two reads joined here: SQLite would otherwise look each move's run up by scanning every run.
      const order = new Map<string, number>();
      for (const r of s.get(RUNS_IN_EFFECT).all() as { id: string; ord: number }[]) order.set(r.id, r.ord);
      const moves: (TierMove & { ord: number; seq: number })[] = [];
      for (const m of s.get(TIER_MOVES).all() as (TierMove & { runId: string; seq: number })[]) {
        const ord = order.get(m.runId);
        if (ord === undefined) continue; // not in effect: undone, failed, still running
        moves.push({ entityId: m.entityId, from: m.from, to: m.to, at: m.at, ord, seq: m.seq });
      }
      moves.sort((a, b) => a.ord - b.ord || a.seq - b.seq);
      return moves.map(({ entityId, from, to, at }) => ({ entityId, from, to, at }));
    },
  };
}

/** The runs in effect, with their place in recording order (rowid). */
const RUNS_IN_EFFECT = `SELECT id, rowid AS ord FROM maintenance_log WHERE status = 'completed'`;

/**
 * The journal rows that moved a tier, from the partial index journal_tier_moves alone (its condition term for term;
 * its columns are these expressions, so no journal row is read).
 */
const TIER_MOVES = `SELECT run_id AS runId, seq, row_id AS entityId,
  json_extract(before, '$.tier') AS "from", json_extract(after, '$.tier') AS "to", at
  FROM journal
  WHERE table_name = 'entities' AND op = 'update'
    AND json_extract(before, '$.tier') IS NOT json_extract(after, '$.tier')`;
