import type { Relationship, StateValue } from '../../../domain/world.js';
import type { RelationshipRepo } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { fromJson, notFound, toJson, type Statements } from './sql.js';

interface RelationshipRow {
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

function relationshipFromRow(row: RelationshipRow): Relationship {
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

export function createRelationshipRepo(s: Statements): SyncOf<RelationshipRepo> {
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
      // Two index-friendly halves instead of an OR across both columns.
      const rows = s
        .get(
          `SELECT * FROM (
             ${SELECT} WHERE source_id = @id ${open}
             UNION
             ${SELECT} WHERE target_id = @id ${open}
           ) ORDER BY valid_from, recorded_at, id`,
        )
        .all({ id: entityId }) as RelationshipRow[];
      return rows.map(relationshipFromRow);
    },

    findOpen({ sourceId, targetId, type }) {
      const row = s
        .get(
          `${SELECT} WHERE source_id = ? AND target_id = ? AND type = ? AND valid_to IS NULL
           ORDER BY valid_from DESC, recorded_at DESC, id LIMIT 1`,
        )
        .get(sourceId, targetId, type) as RelationshipRow | undefined;
      return row ? relationshipFromRow(row) : null;
    },

    close({ id, validTo }) {
      const result = s.get('UPDATE relationships SET valid_to = ? WHERE id = ?').run(validTo, id);
      if (result.changes === 0) throw notFound('relationship', id);
    },
  };
}
