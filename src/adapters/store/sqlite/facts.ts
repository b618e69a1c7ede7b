import type { Fact, StateValue } from '../../../domain/world.js';
import type { FactRepo, ValueChange } from '../../../ports/world-store.js';
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

/**
 * facts.valuesChangedBetween in one statement (the same text runs on PostgreSQL): the latest fact valid at each end
 * per (entity, attribute), one row per pair with both values, kept where the stored values differ. Only the pairs
 * that differ leave the database: reading every fact valid at both ends and comparing them here was most of a
 * diff's time on a large memory.
 */
export const VALUES_CHANGED_BETWEEN = `SELECT entity_id, attribute, old_value, new_value FROM (
    SELECT entity_id, attribute,
        max(CASE WHEN side = 0 THEN value END) AS old_value, max(CASE WHEN side = 1 THEN value END) AS new_value
      FROM (
        SELECT entity_id, attribute, value, 0 AS side,
            row_number() OVER (PARTITION BY entity_id, attribute ORDER BY valid_from DESC, recorded_at DESC, id DESC) AS n
          FROM facts WHERE valid_from <= @after AND (valid_to IS NULL OR valid_to > @after)
        UNION ALL
        SELECT entity_id, attribute, value, 1 AS side,
            row_number() OVER (PARTITION BY entity_id, attribute ORDER BY valid_from DESC, recorded_at DESC, id DESC) AS n
          FROM facts WHERE valid_from <= @until AND (valid_to IS NULL OR valid_to > @until)
      ) latest
      WHERE n = 1
      GROUP BY entity_id, attribute
  ) ends
  WHERE coalesce(old_value, 'null') IS DISTINCT FROM coalesce(new_value, 'null')
  ORDER BY entity_id, attribute`;

export interface ValueChangeRow {
  entity_id: string;
  attribute: string;
  old_value: string | null;
  new_value: string | null;
}

export function valueChangeFromRow(row: ValueChangeRow): ValueChange {
  return {
    entityId: row.entity_id,
    attribute: row.attribute,
    from: fromJson<StateValue>(row.old_value, null),
    to: fromJson<StateValue>(row.new_value, null),
  };
}

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

    currentOf(entityIds) {
      // `+valid_to`: without it the planner skip-scans facts_by_entity over every attribute of each entity
      // (seconds for a thousand entities); with it, it reads each entity's facts and filters (milliseconds).
      const rows = s
        .get(
          `${SELECT} WHERE entity_id ${IDS_IN} AND +valid_to IS NULL
           ORDER BY entity_id, attribute, valid_from, recorded_at, id`,
        )
        .all({ ids: idsParam(entityIds) }) as FactRow[];
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

    valuesChangedBetween({ after, until }) {
      const rows = s.get(VALUES_CHANGED_BETWEEN).all({ after, until }) as ValueChangeRow[];
      return rows.map(valueChangeFromRow);
    },

    close({ id, validTo, supersededBy }) {
      const result = s
        .get('UPDATE facts SET valid_to = ?, superseded_by = ? WHERE id = ?')
        .run(validTo, supersededBy, id);
      if (result.changes === 0) throw notFound('fact', id);
    },

    backdate({ id, validFrom }) {
      const result = s.get('UPDATE facts SET valid_from = MIN(valid_from, ?) WHERE id = ?').run(validFrom, id);
      if (result.changes === 0) throw notFound('fact', id);
    },

    currentConfidence() {
      const row = s
        // `+valid_to`: one pass over the table, not a skip-scan of facts_by_entity (5 times slower on 200k facts).
        .get('SELECT count(*) AS facts, coalesce(avg(confidence), 0) AS mean FROM facts WHERE +valid_to IS NULL')
        .get() as { facts: number; mean: number };
      return { facts: row.facts, mean: row.mean };
    },
  };
}
