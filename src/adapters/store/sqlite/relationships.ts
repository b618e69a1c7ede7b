import { GENERIC_RELATIONSHIP, type Relationship, type StateValue } from '../../../domain/world.js';
import type { RelationshipRepo } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { IDS_IN, fromJson, idsParam, limitParam, notFound, toJson, type Params, type Statements } from './sql.js';

export interface RelationshipRow {
  id: string;
  type: string;
  source_id: string;
  target_id: string;
  properties: string;
  valid_from: number;
  valid_to: number | null;
  confidence: number;
  episode_id: string | null;
  recorded_at: number;
  discovered_by: string | null;
}

const SELECT = `SELECT id, type, source_id, target_id, properties, valid_from, valid_to, confidence, episode_id,
  recorded_at, discovered_by FROM relationships`;

export function relationshipFromRow(row: RelationshipRow): Relationship {
  return {
    id: row.id,
    type: row.type,
    sourceId: row.source_id,
    targetId: row.target_id,
    properties: fromJson<Record<string, StateValue>>(row.properties, {}),
    validFrom: row.valid_from,
    validTo: row.valid_to,
    confidence: row.confidence,
    episodeId: row.episode_id,
    recordedAt: row.recorded_at,
    discoveredBy: row.discovered_by,
  };
}

/** The columns forEntity sorts by, for picking the first edges before reading them whole. */
const KEYS = 'SELECT id, type, valid_to, valid_from, recorded_at FROM relationships';

export const VALID_AT = 'valid_from <= @time AND (valid_to IS NULL OR valid_to > @time)';

/** Began in [since, until) or ended in it; a relationship listed once, at its first change in the window. */
const changedBetween = (types: string): string => `SELECT * FROM (
    ${SELECT} WHERE valid_from >= @since AND valid_from < @until ${types}
    UNION
    ${SELECT} WHERE valid_to >= @since AND valid_to < @until ${types}
  )
  ORDER BY CASE WHEN valid_from >= @since AND valid_from < @until THEN valid_from ELSE valid_to END, id
  LIMIT @limit`;

/** The latest edge of a type from source to target (`open`: only one not ended), by start then record time. */
const LATEST = (open: boolean): string =>
  `${SELECT} WHERE source_id = ? AND target_id = ? AND type = ? ${open ? 'AND valid_to IS NULL' : ''}
   ORDER BY valid_from DESC, recorded_at DESC, id LIMIT 1`;

export function createRelationshipRepo(s: Statements): SyncOf<RelationshipRepo> {
  const latest = (sourceId: string, targetId: string, type: string, open: boolean): Relationship | null => {
    const row = s.get(LATEST(open)).get(sourceId, targetId, type) as RelationshipRow | undefined;
    return row ? relationshipFromRow(row) : null;
  };
  return {
    insert(r) {
      s.get(
        `INSERT INTO relationships (id, type, source_id, target_id, properties, valid_from, valid_to, confidence,
           episode_id, recorded_at, discovered_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        r.id,
        r.type,
        r.sourceId,
        r.targetId,
        toJson(r.properties),
        r.validFrom,
        r.validTo,
        r.confidence,
        r.episodeId,
        r.recordedAt,
        r.discoveredBy,
      );
    },

    forEntity(entityId, options) {
      const open = options?.includeEnded === true ? '' : 'AND valid_to IS NULL';
      const excluded = options?.excludeTypes ?? [];
      const types = excluded.length > 0 ? `AND type NOT ${IDS_IN}` : '';
      const limit = limitParam(options?.limit);
      // Two index-friendly halves instead of an OR across both columns (a self-loop comes from the first only).
      // With a limit, the first `limit` by open-first, newest-first are picked by their sort keys alone (a hub has
      // hundreds of edges: sorting whole rows, properties and all, cost twice as much), then read whole and
      // returned chronologically.
      const sql =
        limit === null
          ? `SELECT * FROM (
               ${SELECT} WHERE source_id = @id ${open} ${types}
               UNION ALL
               ${SELECT} WHERE target_id = @id AND source_id <> @id ${open} ${types}
             ) ORDER BY valid_from, recorded_at, id`
          : `${SELECT} WHERE id IN (
               SELECT id FROM (
                 ${KEYS} WHERE source_id = @id ${open} ${types}
                 UNION ALL
                 ${KEYS} WHERE target_id = @id AND source_id <> @id ${open} ${types}
               ) ORDER BY valid_to IS NOT NULL, type = '${GENERIC_RELATIONSHIP}', valid_from DESC, recorded_at DESC, id
               LIMIT @limit
             ) ORDER BY valid_from, recorded_at, id`;
      const params: Params = { id: entityId, ids: idsParam(excluded), ...(limit === null ? {} : { limit }) };
      return (s.get(sql).all(params) as RelationshipRow[]).map(relationshipFromRow);
    },

    findOpen({ sourceId, targetId, type }) {
      return latest(sourceId, targetId, type, true);
    },

    findLatest({ sourceId, targetId, type }) {
      return latest(sourceId, targetId, type, false);
    },

    versions({ sourceId, targetId, type }) {
      const found = s
        .get(`${SELECT} WHERE source_id = ? AND target_id = ? AND type = ? ORDER BY valid_from, recorded_at, id`)
        .all(sourceId, targetId, type) as RelationshipRow[];
      return found.map(relationshipFromRow);
    },

    validAt({ time, entityIds, limit }) {
      const params: Params = { time, limit: limitParam(limit) ?? -1 };
      let sql = `${SELECT} WHERE ${VALID_AT} ORDER BY valid_from, id LIMIT @limit`;
      if (entityIds !== undefined) {
        params.ids = idsParam(entityIds);
        // Two index-friendly halves, as in forEntity.
        sql = `SELECT * FROM (
            ${SELECT} WHERE source_id ${IDS_IN} AND ${VALID_AT}
            UNION
            ${SELECT} WHERE target_id ${IDS_IN} AND ${VALID_AT}
          ) ORDER BY valid_from, id LIMIT @limit`;
      }
      return (s.get(sql).all(params) as RelationshipRow[]).map(relationshipFromRow);
    },

    changedBetween({ since, until, limit, excludeTypes = [] }) {
      const types = excludeTypes.length > 0 ? `AND type NOT ${IDS_IN}` : '';
      const params: Params = { since, until, limit: limitParam(limit) ?? -1 };
      if (excludeTypes.length > 0) params.ids = idsParam(excludeTypes);
      return (s.get(changedBetween(types)).all(params) as RelationshipRow[]).map(relationshipFromRow);
    },

    close({ id, validTo }) {
      const result = s.get('UPDATE relationships SET valid_to = ? WHERE id = ?').run(validTo, id);
      if (result.changes === 0) throw notFound('relationship', id);
    },

    backdate({ id, validFrom }) {
      const result = s.get('UPDATE relationships SET valid_from = MIN(valid_from, ?) WHERE id = ?').run(validFrom, id);
      if (result.changes === 0) throw notFound('relationship', id);
    },

    remove(id) {
      if (s.get('DELETE FROM relationships WHERE id = ?').run(id).changes === 0) throw notFound('relationship', id);
    },
  };
}
