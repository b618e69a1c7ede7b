import type { Period } from '../../../domain/world.js';
import type { PeriodRepo } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import type { Statements } from './sql.js';

export interface PeriodRow {
  entity_id: string;
  name: string;
  start_at: number;
  end_at: number | null;
}

export const SELECT = 'SELECT entity_id, name, start_at, end_at FROM periods';

export function periodFromRow(row: PeriodRow): Period {
  return { entityId: row.entity_id, name: row.name, start: row.start_at, end: row.end_at };
}

export function createPeriodRepo(s: Statements): SyncOf<PeriodRepo> {
  return {
    upsert(p) {
      s.get(
        `INSERT INTO periods (entity_id, name, start_at, end_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (entity_id) DO UPDATE SET name = excluded.name, start_at = excluded.start_at,
           end_at = excluded.end_at`,
      ).run(p.entityId, p.name, p.start, p.end);
    },

    get(entityId) {
      const row = s.get(`${SELECT} WHERE entity_id = ?`).get(entityId) as PeriodRow | undefined;
      return row ? periodFromRow(row) : null;
    },

    list() {
      const rows = s.get(`${SELECT} ORDER BY start_at, end_at IS NULL, end_at, name, entity_id`).all() as PeriodRow[];
      return rows.map(periodFromRow);
    },
  };
}
