import type { WorldStats } from '../../../domain/world.js';
import type { Statements } from './sql.js';

interface EpisodeSummaryRow {
  episodes: number;
  pending: number | null;
  first: number | null;
  last: number | null;
}

interface GroupRow {
  key: string;
  n: number;
}

function groups(rows: GroupRow[]): Record<string, number> {
  return Object.fromEntries(rows.map((row) => [row.key, row.n]));
}

/** Every WorldStats count in one consistent read (the statements run in one read transaction). */
export function createStats(s: Statements): () => WorldStats {
  const count = (sql: string): number => Number(s.pluck(sql).get());
  const read = (): WorldStats => {
    const episodes = s
      .get(
        `SELECT count(*) AS episodes, sum(extraction = 'pending') AS pending, min(created_at) AS first,
           max(created_at) AS last FROM episodes`,
      )
      .get() as EpisodeSummaryRow;
    return {
      episodes: episodes.episodes,
      turns: count('SELECT count(*) FROM turns'),
      episodesPendingExtraction: episodes.pending ?? 0,
      entities: count('SELECT count(*) FROM entities'),
      entitiesByType: groups(
        s.get('SELECT type AS key, count(*) AS n FROM entities GROUP BY type ORDER BY type').all() as GroupRow[],
      ),
      entitiesByTier: groups(
        s.get('SELECT tier AS key, count(*) AS n FROM entities GROUP BY tier ORDER BY tier').all() as GroupRow[],
      ),
      transitions: count('SELECT count(*) FROM transitions'),
      facts: count('SELECT count(*) FROM facts'),
      currentFacts: count('SELECT count(*) FROM facts WHERE valid_to IS NULL'),
      relationships: count('SELECT count(*) FROM relationships'),
      periods: count('SELECT count(*) FROM periods'),
      procedures: count('SELECT count(*) FROM procedures'),
      firstEpisodeAt: episodes.first,
      lastEpisodeAt: episodes.last,
    };
  };
  return () => s.db.transaction(read).deferred();
}

/**
 * WorldStore.revision: SQLite's data_version (it moves when another connection, in this process or another, commits)
 * and this connection's own row changes (total_changes(), which data_version does not count).
 */
export function createRevision(s: Statements): () => string {
  return () =>
    `${String(s.db.pragma('data_version', { simple: true }))}.${String(s.pluck('SELECT total_changes()').get())}`;
}
