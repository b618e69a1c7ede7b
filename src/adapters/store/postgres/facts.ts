import type { FactRepo } from '../../../ports/world-store.js';
import {
  VALUES_CHANGED_BETWEEN,
  factFromRow,
  valueChangeFromRow,
  type FactRow,
  type ValueChangeRow,
} from '../sqlite/facts.js';
import { toJson, notFound, wholeTime, type Params, type Sql } from './sql.js';

const SELECT = `SELECT id, entity_id, attribute, value, valid_from, valid_to, superseded_by, episode_id, recorded_at,
  confidence FROM facts`;

export function createFactRepo(sql: Sql): FactRepo {
  const rows = async (text: string, params: Params) => (await sql.all<FactRow>(text, params)).map(factFromRow);
  return {
    async insert(f) {
      await sql.run(
        `INSERT INTO facts (id, entity_id, attribute, value, valid_from, valid_to, superseded_by, episode_id,
           recorded_at, confidence)
         VALUES (@id, @entityId, @attribute, @value, @validFrom, @validTo, @supersededBy, @episodeId, @recordedAt,
           @confidence)`,
        {
          id: f.id,
          entityId: f.entityId,
          attribute: f.attribute,
          value: toJson(f.value),
          validFrom: f.validFrom,
          validTo: f.validTo,
          supersededBy: f.supersededBy,
          episodeId: f.episodeId,
          recordedAt: f.recordedAt,
          confidence: f.confidence,
        },
      );
    },

    current: (entityId) =>
      rows(
        `${SELECT} WHERE entity_id = @entityId AND valid_to IS NULL ORDER BY attribute, valid_from, recorded_at, id`,
        {
          entityId,
        },
      ),

    currentOf: (entityIds) =>
      rows(
        `${SELECT} WHERE entity_id = ANY(@ids::text[]) AND valid_to IS NULL
         ORDER BY entity_id, attribute, valid_from, recorded_at, id`,
        { ids: entityIds },
      ),

    history: (entityId, attribute) =>
      attribute === undefined
        ? rows(`${SELECT} WHERE entity_id = @entityId ORDER BY valid_from, recorded_at, id`, { entityId })
        : rows(
            `${SELECT} WHERE entity_id = @entityId AND attribute = @attribute ORDER BY valid_from, recorded_at, id`,
            {
              entityId,
              attribute,
            },
          ),

    validAt({ time, entityIds }) {
      const only = entityIds === undefined ? '' : 'AND entity_id = ANY(@ids::text[])';
      return rows(
        `${SELECT} WHERE valid_from <= @time AND (valid_to IS NULL OR valid_to > @time) ${only}
         ORDER BY entity_id, attribute, valid_from, recorded_at, id`,
        entityIds === undefined
          ? { time: wholeTime(time, 'floor') }
          : { time: wholeTime(time, 'floor'), ids: entityIds },
      );
    },

    async valuesChangedBetween({ after, until }) {
      return (
        await sql.all<ValueChangeRow>(VALUES_CHANGED_BETWEEN, {
          after: wholeTime(after, 'floor'),
          until: wholeTime(until, 'floor'),
        })
      ).map(valueChangeFromRow);
    },

    async close({ id, validTo, supersededBy }) {
      const n = await sql.run('UPDATE facts SET valid_to = @validTo, superseded_by = @supersededBy WHERE id = @id', {
        id,
        validTo,
        supersededBy,
      });
      if (n === 0) throw notFound('fact', id);
    },

    async backdate({ id, validFrom }) {
      const n = await sql.run('UPDATE facts SET valid_from = LEAST(valid_from, @validFrom) WHERE id = @id', {
        id,
        validFrom,
      });
      if (n === 0) throw notFound('fact', id);
    },

    async currentConfidence() {
      const row = await sql.one<{ facts: number; mean: number }>(
        'SELECT count(*) AS facts, coalesce(avg(confidence), 0) AS mean FROM facts WHERE valid_to IS NULL',
      );
      return { facts: Number(row?.facts ?? 0), mean: Number(row?.mean ?? 0) };
    },
  };
}
