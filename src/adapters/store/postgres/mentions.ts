import type { EntityActivity, MentionRepo } from '../../../ports/world-store.js';
import { limitParam, wholeTime, type Sql } from './sql.js';
import {
  episodeEntitiesFromRow,
  mentionFromRow,
  type EpisodeEntitiesRow,
  type MentionRow,
} from '../sqlite/mentions.js';

const ACTIVE_BETWEEN = `SELECT entity_id AS "entityId", count(*) AS mentions, min(time) AS first, max(time) AS last
  FROM entity_mentions WHERE time >= @since AND time < @until
  GROUP BY entity_id
  ORDER BY mentions DESC, last DESC, entity_id
  LIMIT @limit`;

export function createMentionRepo(sql: Sql): MentionRepo {
  return {
    async add({ entityId, episodeId, time }) {
      await sql.run(
        `INSERT INTO entity_mentions (entity_id, episode_id, time) VALUES (@entityId, @episodeId, @time)
         ON CONFLICT (entity_id, episode_id) DO UPDATE SET time = least(entity_mentions.time, excluded.time)`,
        { entityId, episodeId, time },
      );
    },

    async forEntity(entityId) {
      const rows = await sql.all<MentionRow>(
        'SELECT entity_id, episode_id, time FROM entity_mentions WHERE entity_id = @entityId ORDER BY time, episode_id',
        { entityId },
      );
      return rows.map(mentionFromRow);
    },

    async forEntitiesSince(wanted) {
      // Each wanted entity (in the order given) through its (entity_id, time) index from its own start.
      const rows = await sql.all<MentionRow>(
        `SELECT m.entity_id, m.episode_id, m.time
         FROM unnest(@ids::text[], @since::bigint[]) WITH ORDINALITY AS w(wanted, since, n)
         JOIN entity_mentions m ON m.entity_id = w.wanted AND m.time >= w.since
         ORDER BY w.n, m.time, m.episode_id`,
        { ids: wanted.map((w) => w.entityId), since: wanted.map((w) => wholeTime(w.since, 'ceil')) },
      );
      return rows.map(mentionFromRow);
    },

    async forEpisode(episodeId) {
      const rows = await sql.all<MentionRow>(
        'SELECT entity_id, episode_id, time FROM entity_mentions WHERE episode_id = @episodeId ORDER BY time, entity_id',
        { episodeId },
      );
      return rows.map(mentionFromRow);
    },

    async episodeEntities() {
      const rows = await sql.all<EpisodeEntitiesRow>(
        `SELECT e.id AS episode_id, min(m.time) AS time, json_agg(m.entity_id)::text AS entity_ids
         FROM episodes e JOIN entity_mentions m ON m.episode_id = e.id
         GROUP BY e.id, e.created_at ORDER BY e.created_at, e.id`,
      );
      return rows.map(episodeEntitiesFromRow);
    },

    async activeBetween({ since, until, limit }) {
      const rows = await sql.all<EntityActivity>(ACTIVE_BETWEEN, {
        since: wholeTime(since, 'ceil'),
        until: wholeTime(until, 'ceil'),
        limit: limitParam(limit),
      });
      return rows.map((r) => ({ ...r, mentions: Number(r.mentions) }));
    },
  };
}
