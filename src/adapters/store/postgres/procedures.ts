import type { ProcedureRepo } from '../../../ports/world-store.js';
import { toJson, type Sql } from './sql.js';
import { ORDER, procedureFromRow, type ProcedureRow } from '../sqlite/procedures.js';

const SELECT = `SELECT id, description, pattern, evidence, times_observed, first_observed, last_observed, domain,
  confidence FROM procedures`;
export function createProcedureRepo(sql: Sql): ProcedureRepo {
  return {
    async upsert(p) {
      await sql.run(
        `INSERT INTO procedures (id, description, pattern, evidence, times_observed, first_observed, last_observed,
           domain, confidence)
         VALUES (@id, @description, @pattern, @evidence, @timesObserved, @firstObserved, @lastObserved, @domain,
           @confidence)
         ON CONFLICT (id) DO UPDATE SET description = excluded.description, pattern = excluded.pattern,
           evidence = excluded.evidence, times_observed = excluded.times_observed,
           first_observed = excluded.first_observed, last_observed = excluded.last_observed,
           domain = excluded.domain, confidence = excluded.confidence`,
        {
          id: p.id,
          description: p.description,
          pattern: toJson(p.pattern),
          evidence: toJson(p.evidence),
          timesObserved: p.timesObserved,
          firstObserved: p.firstObserved,
          lastObserved: p.lastObserved,
          domain: p.domain,
          confidence: p.confidence,
        },
      );
    },

    async list(query) {
      const rows =
        query?.domain === undefined
          ? await sql.all<ProcedureRow>(`${SELECT} ${ORDER}`)
          : await sql.all<ProcedureRow>(`${SELECT} WHERE domain = @domain ${ORDER}`, { domain: query.domain });
      return rows.map(procedureFromRow);
    },
  };
}
