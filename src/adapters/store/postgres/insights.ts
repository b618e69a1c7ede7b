import type { InsightRepo } from '../../../ports/insight-store.js';
import { type Params, type Sql } from './sql.js';
import { insightFromRow, type InsightRow } from '../sqlite/insights.js';

export function createInsightRepo(sql: Sql): InsightRepo {
  return {
    async list(query) {
      const where: string[] = [];
      const params: Params = {};
      if (query?.kind !== undefined) {
        where.push('kind = @kind');
        params.kind = query.kind;
      }
      if (query?.runId !== undefined) {
        where.push('run_id = @runId');
        params.runId = query.runId;
      }
      params.limit = query?.limit === undefined ? null : Math.max(0, Math.floor(query.limit));
      const rows = await sql.all<InsightRow>(
        `SELECT id, kind, text, evidence, confidence, status, run_id, created_at FROM insights
         ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT @limit`,
        params,
      );
      return rows.map(insightFromRow);
    },

    async count(query) {
      const row =
        query?.kind === undefined
          ? await sql.one<{ n: number }>('SELECT count(*) AS n FROM insights')
          : await sql.one<{ n: number }>('SELECT count(*) AS n FROM insights WHERE kind = @kind', { kind: query.kind });
      return Number(row?.n ?? 0);
    },
  };
}
