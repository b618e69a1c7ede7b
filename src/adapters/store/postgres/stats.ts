import type { WorldStats } from '../../../domain/world.js';
import { PieError } from '../../../domain/errors.js';
import type { Sql } from './sql.js';

interface Totals {
  episodes: number;
  pending: number;
  first: number | null;
  last: number | null;
  turns: number;
  entities: number;
  transitions: number;
  facts: number;
  current_facts: number;
  relationships: number;
  periods: number;
  procedures: number;
}

/** Every WorldStats count in one statement (one snapshot, so the counts agree with each other). */
export function createStats(sql: Sql): () => Promise<WorldStats> {
  return async () => {
    const row = await sql.one<Totals & { by_type: string; by_tier: string }>(
      `SELECT (SELECT count(*) FROM episodes) AS episodes,
         (SELECT count(*) FROM episodes WHERE extraction = 'pending') AS pending,
         (SELECT min(created_at) FROM episodes) AS first, (SELECT max(created_at) FROM episodes) AS last,
         (SELECT count(*) FROM turns) AS turns, (SELECT count(*) FROM entities) AS entities,
         (SELECT count(*) FROM transitions) AS transitions, (SELECT count(*) FROM facts) AS facts,
         (SELECT count(*) FROM facts WHERE valid_to IS NULL) AS current_facts,
         (SELECT count(*) FROM relationships) AS relationships, (SELECT count(*) FROM periods) AS periods,
         (SELECT count(*) FROM procedures) AS procedures,
         (SELECT coalesce(json_object_agg(type, n ORDER BY type), '{}')::text
            FROM (SELECT type, count(*) AS n FROM entities GROUP BY type) t) AS by_type,
         (SELECT coalesce(json_object_agg(tier, n ORDER BY tier), '{}')::text
            FROM (SELECT tier, count(*) AS n FROM entities GROUP BY tier) t) AS by_tier`,
    );
    if (!row) throw new PieError('INTERNAL', 'The statistics query returned no row.');
    return {
      episodes: Number(row.episodes),
      turns: Number(row.turns),
      episodesPendingExtraction: Number(row.pending),
      entities: Number(row.entities),
      entitiesByType: JSON.parse(row.by_type) as Record<string, number>,
      entitiesByTier: JSON.parse(row.by_tier) as Record<string, number>,
      transitions: Number(row.transitions),
      facts: Number(row.facts),
      currentFacts: Number(row.current_facts),
      relationships: Number(row.relationships),
      periods: Number(row.periods),
      procedures: Number(row.procedures),
      firstEpisodeAt: row.first === null ? null : Number(row.first),
      lastEpisodeAt: row.last === null ? null : Number(row.last),
    };
  };
}

/**
 * WorldStore.revision: the server's current snapshot as text (xmin:xmax:in-progress ids). It moves whenever any
 * transaction that writes starts (a new id) or ends (it leaves the in-progress list), on any connection; reads take
 * no transaction id. Server-wide, so a write to another memory or database moves it too (a needless recompute, never
 * a stale answer).
 */
export function createRevision(sql: Sql): () => Promise<string> {
  return async () =>
    (await sql.one<{ snapshot: string }>('SELECT pg_current_snapshot()::text AS snapshot'))?.snapshot ?? '';
}
