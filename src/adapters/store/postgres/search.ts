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
import { budgetTiers, informative, overBudget, sortMatches, type BudgetTier } from './search-budget.js';
import type { SearchStats } from './search-stats.js';
import {
  CLOSE,
  ENTITIES,
  EPISODES,
  OPEN,
  TRANSITIONS,
  TURNS,
  newestMatches,
  searchSql,
  wholeTable,
  type Source,
} from './search-sql.js';

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
 * in turn, each adding what the earlier ones missed. In a large table the SQLite adapter's budget for common words
 * applies (search-budget.ts): the any-word tier leaves out words in over 5 % of rows, and a tier expected to match
 * more than RANK_BUDGET rows ranks the rows with its rarest words first, then the newest RANK_BUDGET matches.
 */
async function tiered<R extends { snippet: string; score: number }>(
  sql: Sql,
  searchStats: SearchStats,
  query: SearchQuery,
  source: Source,
  keyOf: (r: R) => string,
  filter?: string,
): Promise<R[]> {
  const limit = checkLimit(query);
  const tiers = buildTsTiers(query.text);
  if (!tiers) return [];
  const stats = await searchStats.wordDocs(sql, source.table, tiers.words);
  const run = async (q: string, from = wholeTable(source)): Promise<R[]> => {
    const params: Params = { ...tiers.params, limit };
    const rows = await sql.all<R>(searchSql({ source, q, from, filter }), params);
    return rows.map((r) => ({ ...r, snippet: marked(r.snippet, query), score: Number(r.score) }));
  };
  const rank = async (tier: BudgetTier): Promise<R[]> => {
    if (!overBudget(tier, stats)) return run(tier.expr);
    const rare = informative(tier, tiers, stats);
    const out = rare === null ? [] : await run(`(${tier.expr}) && (${rare})`);
    if (out.length >= limit) return out;
    const seen = new Set(out.map(keyOf));
    const newest = newestMatches({ source, expr: tier.expr, sortMatches: sortMatches(tier, stats) });
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

export function createSearchRepo(sql: Sql, stats: SearchStats): SearchRepo {
  return {
    async turns(query) {
      const rows = await tiered<Omit<TurnHit, 'kind'>>(sql, stats, query, TURNS, (r) => `${r.episodeId}#${r.seq}`);
      return rows.map((r) => ({ kind: 'turn' as const, ...r }));
    },
    async episodes(query) {
      const rows = await tiered<Omit<EpisodeHit, 'kind'>>(sql, stats, query, EPISODES, (r) => r.episodeId);
      return rows.map((r) => ({ kind: 'episode' as const, ...r }));
    },
    async entities(query) {
      const filter = query.includeArchived === true ? '' : "AND e.tier <> 'archived'";
      const rows = await tiered<Omit<EntityHit, 'kind'>>(sql, stats, query, ENTITIES, (r) => r.entityId, filter);
      return rows.map((r) => ({ kind: 'entity' as const, ...r }));
    },
    async transitions(query) {
      const rows = await tiered<Omit<TransitionHit, 'kind'>>(sql, stats, query, TRANSITIONS, (r) => r.transitionId);
      return rows.map((r) => ({ kind: 'transition' as const, ...r }));
    },
  };
}
