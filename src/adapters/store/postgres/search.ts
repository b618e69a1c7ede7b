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
import { DEFAULT_LIMIT, MAX_LIMIT, RANK_BUDGET } from '../sqlite/search.js';
import { budgetTiers, informative, overBudget, wordDocs, type BudgetTier } from './search-budget.js';

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
const turnsSql = (q: string, from: string): string => `SELECT t.episode_id AS "episodeId", e.title AS "episodeTitle",
    e.created_at AS "episodeTime", t.seq, t.role, t.time,
    ts_headline('english', t.text, q.q, ${HEADLINE}) AS snippet, -ts_rank(t.search_tsv, q.q) AS score
  FROM (SELECT ${q} AS q) q, ${from} JOIN episodes e ON e.id = t.episode_id
  WHERE t.search_tsv @@ q.q
  ORDER BY score, t.episode_id, t.seq LIMIT @limit`;

const episodesSql = (q: string, from: string): string => `SELECT e.id AS "episodeId", e.title, e.created_at AS time,
    ts_headline('english', concat_ws(' … ', e.title, e.summary), q.q, ${HEADLINE}) AS snippet,
    -ts_rank(e.search_tsv, q.q) AS score
  FROM (SELECT ${q} AS q) q, ${from}
  WHERE e.search_tsv @@ q.q
  ORDER BY score, e.id LIMIT @limit`;

const entitiesSql =
  (includeArchived: boolean) => (q: string, from: string) => `SELECT e.id AS "entityId", e.name, e.type,
    ts_headline('english', e.search_text, q.q, ${HEADLINE}) AS snippet, -ts_rank(e.search_tsv, q.q) AS score
  FROM (SELECT ${q} AS q) q, ${from}
  WHERE e.search_tsv @@ q.q ${includeArchived ? '' : "AND e.tier <> 'archived'"}
  ORDER BY score, e.id LIMIT @limit`;

const transitionsSql = (q: string, from: string): string => `SELECT t.id AS "transitionId", t.entity_id AS "entityId",
    t.event_time AS "eventTime", ts_headline('english', t.summary, q.q, ${HEADLINE}) AS snippet,
    -ts_rank(t.search_tsv, q.q) AS score
  FROM (SELECT ${q} AS q) q, ${from}
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

/** A searched table: its name, its alias in the queries, and its column of the order rows were stored in. */
interface Source {
  table: string;
  alias: string;
  order: string;
}

const TURNS: Source = { table: 'turns', alias: 't', order: 'id' };
const EPISODES: Source = { table: 'episodes', alias: 'e', order: 'rid' };
const ENTITIES: Source = { table: 'entities', alias: 'e', order: 'ord' };
const TRANSITIONS: Source = { table: 'transitions', alias: 't', order: 'ord' };

/**
 * The tiers of SearchRepo: every word; else (three to eight words) at least two; else any word. 'fill' runs them
 * in turn, each adding what the earlier ones missed. In a large table the SQLite adapter's budget for common words
 * applies (search-budget.ts): the any-word tier leaves out words in over 5 % of rows, and a tier expected to match
 * more than RANK_BUDGET rows ranks the rows with its rarest words first, then the newest RANK_BUDGET matches.
 */
async function tiered<R extends { snippet: string; score: number }>(
  sql: Sql,
  query: SearchQuery,
  source: Source,
  build: (q: string, from: string) => string,
  keyOf: (r: R) => string,
): Promise<R[]> {
  const limit = checkLimit(query);
  const tiers = buildTsTiers(query.text);
  if (!tiers) return [];
  const stats = await wordDocs(sql, source.table, tiers.words);
  const run = async (expr: string, from = `${source.table} ${source.alias}`): Promise<R[]> => {
    const params: Params = { ...tiers.params, limit };
    const rows = await sql.all<R>(build(expr, from), params);
    return rows.map((r) => ({ ...r, snippet: marked(r.snippet, query), score: Number(r.score) }));
  };
  const rank = async (tier: BudgetTier): Promise<R[]> => {
    if (!overBudget(tier, stats)) return run(tier.expr);
    const rare = informative(tier, tiers, stats);
    const out = rare === null ? [] : await run(`(${tier.expr}) && (${rare})`);
    if (out.length >= limit) return out;
    const seen = new Set(out.map(keyOf));
    const newest =
      `(SELECT * FROM ${source.table} WHERE search_tsv @@ (${tier.expr}) ` +
      `ORDER BY ${source.order} DESC LIMIT ${RANK_BUDGET}) ${source.alias}`;
    for (const r of await run(tier.expr, newest)) if (!seen.has(keyOf(r))) out.push(r);
    return out.slice(0, limit);
  };
  const order = budgetTiers(tiers, stats);
  if (query.mode !== 'fill') {
    for (const tier of order) {
      const hits = await rank(tier);
      if (hits.length > 0) return hits;
    }
    return [];
  }
  const out: R[] = [];
  const seen = new Set<string>();
  for (const tier of order) {
    for (const r of await rank(tier)) {
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
      const rows = await tiered<Omit<TurnHit, 'kind'>>(sql, query, TURNS, turnsSql, (r) => `${r.episodeId}#${r.seq}`);
      return rows.map((r) => ({ kind: 'turn' as const, ...r }));
    },
    async episodes(query) {
      const rows = await tiered<Omit<EpisodeHit, 'kind'>>(sql, query, EPISODES, episodesSql, (r) => r.episodeId);
      return rows.map((r) => ({ kind: 'episode' as const, ...r }));
    },
    async entities(query) {
      const build = entitiesSql(query.includeArchived === true);
      const rows = await tiered<Omit<EntityHit, 'kind'>>(sql, query, ENTITIES, build, (r) => r.entityId);
      return rows.map((r) => ({ kind: 'entity' as const, ...r }));
    },
    async transitions(query) {
      const rows = await tiered<Omit<TransitionHit, 'kind'>>(
        sql,
        query,
        TRANSITIONS,
        transitionsSql,
        (r) => r.transitionId,
      );
      return rows.map((r) => ({ kind: 'transition' as const, ...r }));
    },
  };
}
