import type { Fact, StateValue } from '../../../domain/world.js';
import type { FactRepo } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { IDS_IN, fromJson, idsParam, notFound, toJson, type Params, type Statements } from './sql.js';

export interface FactRow {
  id: string;
  entity_id: string;
  attribute: string;
  value: string;
  valid_from: number;
  valid_to: number | null;
  superseded_by: string | null;
  episode_id: string | null;
  recorded_at: number;
  confidence: number;
}

/** Every fact column, in the shape factFromRow reads (add a WHERE). */
export const SELECT = `SELECT id, entity_id, attribute, value, valid_from, valid_to, superseded_by, episode_id, recorded_at,
  confidence FROM facts`;

/** Values are stored as JSON so that 20 (number), "20" (string), true and null stay distinct. */
export function factFromRow(row: FactRow): Fact {
  return {
    id: row.id,
    entityId: row.entity_id,
    attribute: row.attribute,
    value: fromJson<StateValue>(row.value, null),
    validFrom: row.valid_from,
    validTo: row.valid_to,
    supersededBy: row.superseded_by,
    episodeId: row.episode_id,
    recordedAt: row.recorded_at,
    confidence: row.confidence,
  };
}

export function createFactRepo(s: Statements): SyncOf<FactRepo> {
  return {
    insert(f) {
      s.get(
        `INSERT INTO facts (id, entity_id, attribute, value, valid_from, valid_to, superseded_by, episode_id,
           recorded_at, confidence)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        f.id,
        f.entityId,
        f.attribute,
        toJson(f.value),
        f.validFrom,
        f.validTo,
        f.supersededBy,
        f.episodeId,
        f.recordedAt,
        f.confidence,
      );
    },

    current(entityId) {
      const rows = s
        .get(`${SELECT} WHERE entity_id = ? AND valid_to IS NULL ORDER BY attribute, valid_from, recorded_at, id`)
        .all(entityId) as FactRow[];
      return rows.map(factFromRow);
    },

    history(entityId, attribute) {
      const rows = (
        attribute === undefined
          ? s.get(`${SELECT} WHERE entity_id = ? ORDER BY valid_from, recorded_at, id`).all(entityId)
          : s
              .get(`${SELECT} WHERE entity_id = ? AND attribute = ? ORDER BY valid_from, recorded_at, id`)
              .all(entityId, attribute)
      ) as FactRow[];
      return rows.map(factFromRow);
    },

    validAt({ time, entityIds }) {
      const params: Params = { time };
      let only = '';
      if (entityIds !== undefined) {
        only = `AND entity_id ${IDS_IN}`;
        params.ids = idsParam(entityIds);
      }
      const rows = s
        .get(
          `${SELECT} WHERE valid_from <= @time AND (valid_to IS NULL OR valid_to > @time) ${only}
           ORDER BY entity_id, attribute, valid_from, recorded_at, id`,
        )
        .all(params) as FactRow[];
      return rows.map(factFromRow);
    },

    entitiesChangedBetween({ after, until }) {
      return s
        .pluck(
          `SELECT DISTINCT entity_id FROM facts
            WHERE (valid_from > @after AND valid_from <= @until) OR (valid_to > @after AND valid_to <= @until)
            ORDER BY entity_id`,
        )
        .all({ after, until }) as string[];
    },

    close({ id, validTo, supersededBy }) {
      const result = s
        .get('UPDATE facts SET valid_to = ?, superseded_by = ? WHERE id = ?')
        .run(validTo, supersededBy, id);
      if (result.changes === 0) throw notFound('fact', id);
    },

    currentConfidence() {
      const row = s
        .get('SELECT count(*) AS facts, coalesce(avg(confidence), 0) AS mean FROM facts WHERE valid_to IS NULL')
        .get() as { facts: number; mean: number };
      return { facts: row.facts, mean: row.mean };
    },
  };
}
