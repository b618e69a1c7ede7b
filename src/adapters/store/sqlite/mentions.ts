import type { EntityActivity, EntityMention, MentionRepo } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { IDS_IN, idsParam, limitParam, type Statements } from './sql.js';

export interface MentionRow {
  entity_id: string;
  episode_id: string;
  time: number;
}

export function mentionFromRow(row: MentionRow): EntityMention {
  return { entityId: row.entity_id, episodeId: row.episode_id, time: row.time };
}

/** Mentions already in each episode's order, regrouped in the order of `episodeIds` (each id once). */
export function inEpisodeOrder(episodeIds: readonly string[], mentions: readonly EntityMention[]): EntityMention[] {
  const byEpisode = new Map<string, EntityMention[]>();
  for (const m of mentions) {
    const list = byEpisode.get(m.episodeId);
    if (list) list.push(m);
    else byEpisode.set(m.episodeId, [m]);
  }
  return [...new Set(episodeIds)].flatMap((id) => byEpisode.get(id) ?? []);
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

    forEpisode(episodeId) {
      const rows = s
        .get('SELECT entity_id, episode_id, time FROM entity_mentions WHERE episode_id = ? ORDER BY time, entity_id')
        .all(episodeId) as MentionRow[];
      return rows.map(mentionFromRow);
    },

    forEpisodes(episodeIds) {
      const rows = s
        .get(
          `SELECT entity_id, episode_id, time FROM entity_mentions WHERE episode_id ${IDS_IN}
            ORDER BY episode_id, time, entity_id`,
        )
        .all({ ids: idsParam(episodeIds) }) as MentionRow[];
      return inEpisodeOrder(episodeIds, rows.map(mentionFromRow));
    },

    activeBetween({ since, until, limit }) {
      return s.get(ACTIVE_BETWEEN).all({ since, until, limit: limitParam(limit) ?? -1 }) as EntityActivity[];
    },
  };
}
