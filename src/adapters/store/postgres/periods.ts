import type { PeriodRepo } from '../../../ports/world-store.js';
import type { Sql } from './sql.js';
import { periodFromRow, type PeriodRow, SELECT } from '../sqlite/periods.js';

export function createPeriodRepo(sql: Sql): PeriodRepo {
  return {
    async upsert(p) {
      await sql.run(
        `INSERT INTO periods (entity_id, name, start_at, end_at) VALUES (@entityId, @name, @start, @end)
         ON CONFLICT (entity_id) DO UPDATE SET name = excluded.name, start_at = excluded.start_at,
           end_at = excluded.end_at`,
        { entityId: p.entityId, name: p.name, start: p.start, end: p.end },
      );
    },

    async get(entityId) {
      const row = await sql.one<PeriodRow>(`${SELECT} WHERE entity_id = @entityId`, { entityId });
      return row ? periodFromRow(row) : null;
    },

    async list() {
      const rows = await sql.all<PeriodRow>(`${SELECT} ORDER BY start_at, end_at IS NULL, end_at, name, entity_id`);
      return rows.map(periodFromRow);
    },
  };
}
