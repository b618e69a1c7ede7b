import type { EntityMention, MentionRepo } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import type { Statements } from './sql.js';

interface MentionRow {
  entity_id: string;
  episode_id: string;
  time: number;
}

function mentionFromRow(row: MentionRow): EntityMention {
  return { entityId: row.entity_id, episodeId: row.episode_id, time: row.time };
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

    forEpisode(episodeId) {
      const rows = s
        .get('SELECT entity_id, episode_id, time FROM entity_mentions WHERE episode_id = ? ORDER BY time, entity_id')
        .all(episodeId) as MentionRow[];
      return rows.map(mentionFromRow);
    },
  };
}
