import type { Procedure } from '../../../domain/world.js';
import type { ProcedureRepo } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { fromJson, toJson, type Statements } from './sql.js';

export interface ProcedureRow {
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

/** Most observed first, then most recently observed. */
export const ORDER = 'ORDER BY times_observed DESC, last_observed DESC, id';

export function procedureFromRow(row: ProcedureRow): Procedure {
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

export function createProcedureRepo(s: Statements): SyncOf<ProcedureRepo> {
  return {
    upsert(p) {
      s.get(
        `INSERT INTO procedures (id, description, pattern, evidence, times_observed, first_observed, last_observed,
           domain, confidence)
         VALUES (@id, @description, @pattern, @evidence, @timesObserved, @firstObserved, @lastObserved, @domain,
           @confidence)
         ON CONFLICT (id) DO UPDATE SET description = excluded.description, pattern = excluded.pattern,
           evidence = excluded.evidence, times_observed = excluded.times_observed,
           first_observed = excluded.first_observed, last_observed = excluded.last_observed,
           domain = excluded.domain, confidence = excluded.confidence`,
      ).run({
        id: p.id,
        description: p.description,
        pattern: toJson(p.pattern),
        evidence: toJson(p.evidence),
        timesObserved: p.timesObserved,
        firstObserved: p.firstObserved,
        lastObserved: p.lastObserved,
        domain: p.domain,
        confidence: p.confidence,
      });
    },

    list(query) {
      const rows = (
        query?.domain === undefined
          ? s.get(`${SELECT} ${ORDER}`).all()
          : s.get(`${SELECT} WHERE domain = ? ${ORDER}`).all(query.domain)
      ) as ProcedureRow[];
      return rows.map(procedureFromRow);
    },
  };
}
