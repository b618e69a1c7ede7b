import { GENERIC_RELATIONSHIP } from '../../../domain/world.js';
import type { RelationshipRepo } from '../../../ports/world-store.js';
import { limitParam, notFound, toJson, wholeTime, type Params, type Sql } from './sql.js';
import { relationshipFromRow, type RelationshipRow, VALID_AT } from '../sqlite/relationships.js';

const COLUMNS = `id, type, source_id, target_id, properties, valid_from, valid_to, confidence, episode_id,
  recorded_at, discovered_by`;
const SELECT = `SELECT ${COLUMNS} FROM relationships`;

const changedBetween = (types: string): string => `SELECT ${COLUMNS} FROM (
    ${SELECT} WHERE valid_from >= @since AND valid_from < @until ${types}
    UNION
    ${SELECT} WHERE valid_to >= @since AND valid_to < @until ${types}
  ) r
  ORDER BY CASE WHEN valid_from >= @since AND valid_from < @until THEN valid_from ELSE valid_to END, id
  LIMIT @limit`;

export function createRelationshipRepo(sql: Sql): RelationshipRepo {
  const rows = async (text: string, params: Params) =>
    (await sql.all<RelationshipRow>(text, params)).map(relationshipFromRow);
  const latest = async (edge: { sourceId: string; targetId: string; type: string }, open: boolean) => {
    const [row] = await rows(
      `${SELECT} WHERE source_id = @sourceId AND target_id = @targetId AND type = @type
       ${open ? 'AND valid_to IS NULL' : ''} ORDER BY valid_from DESC, recorded_at DESC, id LIMIT 1`,
      { ...edge },
    );
    return row ?? null;
  };
  return {
    async insert(r) {
      await sql.run(
        `INSERT INTO relationships (${COLUMNS})
         VALUES (@id, @type, @sourceId, @targetId, @properties, @validFrom, @validTo, @confidence, @episodeId,
           @recordedAt, @discoveredBy)`,
        {
          id: r.id,
          type: r.type,
          sourceId: r.sourceId,
          targetId: r.targetId,
          properties: toJson(r.properties),
          validFrom: r.validFrom,
          validTo: r.validTo,
          confidence: r.confidence,
          episodeId: r.episodeId,
          recordedAt: r.recordedAt,
          discoveredBy: r.discoveredBy,
        },
      );
    },

    forEntity(entityId, options) {
      const open = options?.includeEnded === true ? '' : 'AND valid_to IS NULL';
      const excluded = options?.excludeTypes ?? [];
      const types = excluded.length > 0 ? 'AND NOT (type = ANY(@types::text[]))' : '';
      const limit = limitParam(options?.limit);
      const both = `${SELECT} WHERE source_id = @id ${open} ${types}
          UNION ALL
          ${SELECT} WHERE target_id = @id AND source_id <> @id ${open} ${types}`;
      const text =
        limit === null
          ? `SELECT * FROM (${both}) r ORDER BY valid_from, recorded_at, id`
          : `SELECT * FROM (
               SELECT * FROM (${both}) r
               ORDER BY valid_to IS NOT NULL, type = '${GENERIC_RELATIONSHIP}', valid_from DESC, recorded_at DESC, id
               LIMIT @limit
             ) picked ORDER BY valid_from, recorded_at, id`;
      const params: Params = { id: entityId };
      if (excluded.length > 0) params.types = excluded;
      if (limit !== null) params.limit = limit;
      return rows(text, params);
    },

    findOpen(edge) {
      return latest(edge, true);
    },

    findLatest(edge) {
      return latest(edge, false);
    },

    versions(edge) {
      return rows(
        `${SELECT} WHERE source_id = @sourceId AND target_id = @targetId AND type = @type
         ORDER BY valid_from, recorded_at, id`,
        { ...edge },
      );
    },

    validAt({ time, entityIds, limit }) {
      if (entityIds === undefined) {
        return rows(`${SELECT} WHERE ${VALID_AT} ORDER BY valid_from, id LIMIT @limit`, {
          time: wholeTime(time, 'floor'),
          limit: limitParam(limit),
        });
      }
      return rows(
        `SELECT * FROM (
           ${SELECT} WHERE source_id = ANY(@ids::text[]) AND ${VALID_AT}
           UNION
           ${SELECT} WHERE target_id = ANY(@ids::text[]) AND ${VALID_AT}
         ) r ORDER BY valid_from, id LIMIT @limit`,
        { time: wholeTime(time, 'floor'), ids: entityIds, limit: limitParam(limit) },
      );
    },

    changedBetween: ({ since, until, limit, excludeTypes = [] }) => {
      const params: Params = {
        since: wholeTime(since, 'ceil'),
        until: wholeTime(until, 'ceil'),
        limit: limitParam(limit),
      };
      if (excludeTypes.length > 0) params.types = excludeTypes;
      return rows(changedBetween(excludeTypes.length > 0 ? 'AND NOT (type = ANY(@types::text[]))' : ''), params);
    },

    async close({ id, validTo }) {
      const n = await sql.run('UPDATE relationships SET valid_to = @validTo WHERE id = @id', { id, validTo });
      if (n === 0) throw notFound('relationship', id);
    },

    async backdate({ id, validFrom }) {
      const n = await sql.run('UPDATE relationships SET valid_from = LEAST(valid_from, @validFrom) WHERE id = @id', {
        id,
        validFrom,
      });
      if (n === 0) throw notFound('relationship', id);
    },

    async remove(id) {
      if ((await sql.run('DELETE FROM relationships WHERE id = @id', { id })) === 0) throw notFound('relationship', id);
    },
  };
}
