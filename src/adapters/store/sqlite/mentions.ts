import type {
  EntityActivity,
  EntityMention,
  EpisodeEntities,
  EpisodeMentionList,
  MentionRepo,
} from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { limitParam, pageParams, type Statements } from './sql.js';

export interface MentionRow {
  entity_id: string;
  episode_id: string;
  time: number;
}

export function mentionFromRow(row: MentionRow): EntityMention {
  return { entityId: row.entity_id, episodeId: row.episode_id, time: row.time };
}

/**
 * mentions.pageByEpisode in one statement (the same text runs on PostgreSQL): a page of episodes in list order, each
 * joined with its mentions (none: one row of nulls).
 */
export const PAGE_BY_EPISODE = `WITH page AS (
    SELECT id, created_at FROM episodes ORDER BY created_at, id LIMIT @limit OFFSET @offset
  )
  SELECT p.id AS episode_id, m.entity_id, m.time FROM page p LEFT JOIN entity_mentions m ON m.episode_id = p.id
  ORDER BY p.created_at, p.id, m.time, m.entity_id`;

export interface PageRow {
  episode_id: string;
  entity_id: string | null;
  time: number | null;
}

/** The rows of PAGE_BY_EPISODE as one list per episode, in their order. */
export function groupByEpisode(rows: readonly PageRow[]): EpisodeMentionList[] {
  const out: EpisodeMentionList[] = [];
  let last: EpisodeMentionList | undefined;
  for (const row of rows) {
    if (last?.episodeId !== row.episode_id) {
      last = { episodeId: row.episode_id, mentions: [] };
      out.push(last);
    }
    if (row.entity_id !== null && row.time !== null) {
      last.mentions.push({ entityId: row.entity_id, episodeId: row.episode_id, time: Number(row.time) });
    }
  }
  return out;
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

    pageByEpisode(page) {
      const rows = s.get(PAGE_BY_EPISODE).all(pageParams(page)) as PageRow[];
      return groupByEpisode(rows);
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
