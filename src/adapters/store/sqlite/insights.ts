import type { Insight, InsightRepo } from '../../../ports/insight-store.js';
import type { SyncOf } from './bind.js';
import { fromJson, type SqlValue, type Statements } from './sql.js';

export interface InsightRow {
  id: string;
  kind: string;
  text: string;
  evidence: string;
  confidence: number;
  status: string;
  run_id: string | null;
  created_at: number;
}

export function insightFromRow(row: InsightRow): Insight {
  return {
    id: row.id,
    kind: row.kind,
    text: row.text,
    evidence: fromJson<string[]>(row.evidence, []),
    confidence: row.confidence,
    status: row.status,
    runId: row.run_id,
    createdAt: row.created_at,
  };
}

export function createInsightRepo(s: Statements): SyncOf<InsightRepo> {
  return {
    list(query) {
      const where: string[] = [];
      const args: SqlValue[] = [];
      if (query?.kind !== undefined) {
        where.push('kind = ?');
        args.push(query.kind);
      }
      if (query?.runId !== undefined) {
        where.push('run_id = ?');
        args.push(query.runId);
      }
      const limit = query?.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(query.limit))}`;
      const sql = `SELECT id, kind, text, evidence, confidence, status, run_id, created_at FROM insights${
        where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''
      } ORDER BY created_at DESC, id DESC${limit}`;
      return (s.get(sql).all(...args) as InsightRow[]).map(insightFromRow);
    },

    count(query) {
      return query?.kind === undefined
        ? (s.pluck('SELECT count(*) FROM insights').get() as number)
        : (s.pluck('SELECT count(*) FROM insights WHERE kind = ?').get(query.kind) as number);
    },
  };
}
