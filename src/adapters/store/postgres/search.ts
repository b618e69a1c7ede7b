import { PieError } from '../../../domain/errors.js';
import type {
  EntityHit,
  EpisodeHit,
  SearchQuery,
  SearchRepo,
  TransitionHit,
  TurnHit,
} from '../../../ports/world-store.js';
import { buildTsTiers } from './fts-query.js';
import type { Params, Sql } from './sql.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../sqlite/search.js';

/** ts_headline marks matches with these; they are swapped for the caller's markers afterwards. */
const OPEN = '\u0002';
const CLOSE = '\u0003';
const HEADLINE = `'StartSel=${OPEN}, StopSel=${CLOSE}, MaxWords=16, MinWords=6, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "'`;

/**
 * Scores are negated ts_rank values, so lower is better as with SQLite's BM25. ts_rank is not BM25: the order of
 * hits with equal ranks, and ranks between documents of very different lengths, may differ from SQLite's.
 * Weights: ts_rank's defaults (A 1.0, B 0.4, C 0.2): episode titles above summaries, entity names above aliases
 * above state values.
 */
const turnsSql = (q: string): string => `SELECT t.episode_id AS "episodeId", e.title AS "episodeTitle",
    e.created_at AS "episodeTime", t.seq, t.role, t.time,
    ts_headline('english', t.text, q.q, ${HEADLINE}) AS snippet, -ts_rank(t.search_tsv, q.q) AS score
  FROM (SELECT ${q} AS q) q, turns t JOIN episodes e ON e.id = t.episode_id
  WHERE t.search_tsv @@ q.q
  ORDER BY score, t.episode_id, t.seq LIMIT @limit`;

const episodesSql = (q: string): string => `SELECT e.id AS "episodeId", e.title, e.created_at AS time,
    ts_headline('english', concat_ws(' … ', e.title, e.summary), q.q, ${HEADLINE}) AS snippet,
    -ts_rank(e.search_tsv, q.q) AS score
  FROM (SELECT ${q} AS q) q, episodes e
  WHERE e.search_tsv @@ q.q
  ORDER BY score, e.id LIMIT @limit`;

const entitiesSql = (includeArchived: boolean) => (q: string) => `SELECT e.id AS "entityId", e.name, e.type,
    ts_headline('english', e.search_text, q.q, ${HEADLINE}) AS snippet, -ts_rank(e.search_tsv, q.q) AS score
  FROM (SELECT ${q} AS q) q, entities e
  WHERE e.search_tsv @@ q.q ${includeArchived ? '' : "AND e.tier <> 'archived'"}
  ORDER BY score, e.id LIMIT @limit`;

const transitionsSql = (q: string): string => `SELECT t.id AS "transitionId", t.entity_id AS "entityId",
    t.event_time AS "eventTime", ts_headline('english', t.summary, q.q, ${HEADLINE}) AS snippet,
    -ts_rank(t.search_tsv, q.q) AS score
  FROM (SELECT ${q} AS q) q, transitions t
  WHERE t.search_tsv @@ q.q
  ORDER BY score, t.id LIMIT @limit`;

function checkLimit(query: SearchQuery): number {
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new PieError('INVALID_ARGUMENT', `The search limit must be an integer from 1 to ${MAX_LIMIT}, got ${limit}.`);
  }
  return limit;
}

function marked(snippet: string, query: SearchQuery): string {
  const [open, close] = query.highlight ?? ['«', '»'];
  return snippet.replaceAll(OPEN, open).replaceAll(CLOSE, close);
}

/**
 * The tiers of SearchRepo: every word; else (three to eight words) at least two; else any word. 'fill' runs them
 * in turn, each adding what the earlier ones missed. PostgreSQL's GIN index needs none of the SQLite adapter's
 * budget for very common words: every tier ranks all its matches.
 */
async function tiered<R extends { snippet: string; score: number }>(
  sql: Sql,
  query: SearchQuery,
  build: (q: string) => string,
  keyOf: (r: R) => string,
): Promise<R[]> {
  const limit = checkLimit(query);
  const tiers = buildTsTiers(query.text);
  if (!tiers) return [];
  const run = async (expr: string): Promise<R[]> => {
    const params: Params = { ...tiers.params, limit };
    const rows = await sql.all<R>(build(expr), params);
    return rows.map((r) => ({ ...r, snippet: marked(r.snippet, query), score: Number(r.score) }));
  };
  const order = [tiers.all, tiers.pairs, tiers.any].filter((t): t is string => t !== null);
  if (query.mode !== 'fill') {
    for (const expr of order) {
      const hits = await run(expr);
      if (hits.length > 0) return hits;
    }
    return [];
  }
  const out: R[] = [];
  const seen = new Set<string>();
  for (const expr of order) {
    for (const r of await run(expr)) {
      if (seen.has(keyOf(r))) continue;
      seen.add(keyOf(r));
      out.push(r);
    }
    if (out.length >= limit) break;
  }
  return out.slice(0, limit);
}

export function createSearchRepo(sql: Sql): SearchRepo {
  return {
    async turns(query) {
      const rows = await tiered<Omit<TurnHit, 'kind'>>(sql, query, turnsSql, (r) => `${r.episodeId}#${r.seq}`);
      return rows.map((r) => ({ kind: 'turn' as const, ...r }));
    },
    async episodes(query) {
      const rows = await tiered<Omit<EpisodeHit, 'kind'>>(sql, query, episodesSql, (r) => r.episodeId);
      return rows.map((r) => ({ kind: 'episode' as const, ...r }));
    },
    async entities(query) {
      const build = entitiesSql(query.includeArchived === true);
      const rows = await tiered<Omit<EntityHit, 'kind'>>(sql, query, build, (r) => r.entityId);
      return rows.map((r) => ({ kind: 'entity' as const, ...r }));
    },
    async transitions(query) {
      const rows = await tiered<Omit<TransitionHit, 'kind'>>(sql, query, transitionsSql, (r) => r.transitionId);
      return rows.map((r) => ({ kind: 'transition' as const, ...r }));
    },
  };
}
