import type { EntityActivity, EntityMention, EpisodeEntities, MentionRepo } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { limitParam, type Statements } from './sql.js';

export interface MentionRow {
  entity_id: string;
  episode_id: string;
  time: number;
}

export function mentionFromRow(row: MentionRow): EntityMention {
  return { entityId: row.entity_id, episodeId: row.episode_id, time: row.time };
}

/**
 * Reads the window's range of the (time, entity_id) index, then groups; most mentioned first. INDEXED BY because
 * the planner otherwise prefers walking all of (entity_id, time) to save the GROUP BY sort, which is several times
 * slower for windows of weeks or months (checked with 200k mentions).
 */
const ACTIVE_BETWEEN = `SELECT entity_id AS entityId, count(*) AS mentions, min(time) AS first, max(time) AS last
  FROM entity_mentions INDEXED BY entity_mentions_by_window WHERE time >= @since AND time < @until
  GROUP BY entity_id
  ORDER BY mentions DESC, last DESC, entity_id
  LIMIT @limit`;

/** mentions.episodeEntities; PostgreSQL's differs only in the aggregate (json_agg). */
const EPISODE_ENTITIES = `SELECT e.id AS episode_id, min(m.time) AS time, json_group_array(m.entity_id) AS entity_ids
  FROM episodes e JOIN entity_mentions m ON m.episode_id = e.id
  GROUP BY e.id ORDER BY e.created_at, e.id`;

export interface EpisodeEntitiesRow {
  episode_id: string;
  time: number | string;
  /** A JSON array of ids. */
  entity_ids: string;
}

export function episodeEntitiesFromRow(row: EpisodeEntitiesRow): EpisodeEntities {
  return { episodeId: row.episode_id, time: Number(row.time), entityIds: JSON.parse(row.entity_ids) as string[] };
}

export function createMentionRepo(s: Statements): SyncOf<MentionRepo> {
  return {
    add({ entityId, episodeId, time }) {
      s.get(
        `INSERT INTO entity_mentions (entity_id, episode_id, time) VALUES (?, ?, ?)
         ON CONFLICT (entity_id, episode_id) DO UPDATE SET time = min(time, excluded.time)`,
      ).run(entityId, episodeId, time);
    },

    forEntity(entityId) {
      const rows = s
        .get('SELECT entity_id, episode_id, time FROM entity_mentions WHERE entity_id = ? ORDER BY time, episode_id')
        .all(entityId) as MentionRow[];
      return rows.map(mentionFromRow);
    },

    forEntitiesSince(wanted) {
      // Each wanted entity (in the order given) through its (entity_id, time) index from its own start.
      const rows = s
        .get(
          `SELECT m.entity_id, m.episode_id, m.time FROM json_each(@wanted) w
           JOIN entity_mentions m ON m.entity_id = json_extract(w.value, '$[0]')
             AND m.time >= json_extract(w.value, '$[1]')
           ORDER BY w.key, m.time, m.episode_id`,
        )
        .all({ wanted: JSON.stringify(wanted.map((w) => [w.entityId, w.since])) }) as MentionRow[];
      return rows.map(mentionFromRow);
    },

    forEpisode(episodeId) {
      const rows = s
        .get('SELECT entity_id, episode_id, time FROM entity_mentions WHERE episode_id = ? ORDER BY time, entity_id')
        .all(episodeId) as MentionRow[];
      return rows.map(mentionFromRow);
    },

    episodeEntities() {
      const rows = s.get(EPISODE_ENTITIES).all() as EpisodeEntitiesRow[];
      return rows.map(episodeEntitiesFromRow);
    },

    activeBetween({ since, until, limit }) {
      return s.get(ACTIVE_BETWEEN).all({ since, until, limit: limitParam(limit) ?? -1 }) as EntityActivity[];
    },
  };
}
