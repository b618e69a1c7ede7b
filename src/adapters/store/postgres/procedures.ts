import type { Procedure } from '../../../domain/world.js';
import type { ProcedureRepo } from '../../../ports/world-store.js';
import { fromJson, toJson, type Sql } from './sql.js';

interface ProcedureRow {
  id: string;
  description: string;
  pattern: string;
  evidence: string;
  times_observed: number;
  first_observed: number;
  last_observed: number;
  domain: string | null;
  confidence: number;
}

const SELECT = `SELECT id, description, pattern, evidence, times_observed, first_observed, last_observed, domain,
  confidence FROM procedures`;
const ORDER = 'ORDER BY times_observed DESC, last_observed DESC, id';

function procedureFromRow(row: ProcedureRow): Procedure {
  return {
    id: row.id,
    description: row.description,
    pattern: fromJson<string[]>(row.pattern, []),
    evidence: fromJson<string[]>(row.evidence, []),
    timesObserved: row.times_observed,
    firstObserved: row.first_observed,
    lastObserved: row.last_observed,
    domain: row.domain,
    confidence: row.confidence,
  };
}

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
