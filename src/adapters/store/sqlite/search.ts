import { PieError } from '../../../domain/errors.js';
import type { EntityHit, EpisodeHit, SearchQuery, SearchRepo, TransitionHit } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { buildFtsMatch, pairsOf, type FtsMatch } from './fts-query.js';
import type { Params, Statements } from './sql.js';
import { createTurnRanking } from './turn-ranking.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 1000;
const SNIPPET_TOKENS = 16;

/**
 * The FTS part runs first (ordered by BM25, limited), then joins to its rows. BM25 here is lower-is-better; the
 * weights are those of each index's `rank` configuration (migrations 001 and 002: episode titles twice summaries;
 * entity names 4, aliases 3, state values 1), written out so that a ranking bounded by rowid (see RANK_BUDGET) can
 * order by bm25() itself: FTS5 sorts `ORDER BY rank` internally and ranks every match even with a rowid bound.
 */
interface Ranking {
  /** The FTS sub-select's ranking part: MATCH, the optional rowid bound, the order and the limit. */
  where: (bounded: boolean) => string;
  /** The score column. */
  score: (bounded: boolean) => string;
}

function ranking(fts: string, weights: string): Ranking {
  const bm25 = `bm25(${fts}${weights ? `, ${weights}` : ''})`;
  return {
    where: (bounded) =>
      bounded
        ? `${fts} MATCH @match AND ${fts}.rowid > @after ORDER BY ${bm25}`
        : `${fts} MATCH @match ORDER BY ${fts}.rank`,
    score: (bounded) => (bounded ? bm25 : `${fts}.rank`),
  };
}

/** Turns rank in turn-ranking.ts (once per expression while the memory is unchanged). */
const TURNS_RANK = ranking('turns_fts', '');

const EPISODES_RANK = ranking('episodes_fts', '2.0, 1.0');
const episodesSql = (b: boolean): string => `SELECT e.id AS episodeId, e.title, e.created_at AS time, f.snippet,
    f.score
  FROM (SELECT rowid AS rid, snippet(episodes_fts, -1, @open, @close, '…', ${SNIPPET_TOKENS}) AS snippet,
          ${EPISODES_RANK.score(b)} AS score
        FROM episodes_fts WHERE ${EPISODES_RANK.where(b)} LIMIT @limit) f
  JOIN episodes e ON e.rid = f.rid
  ORDER BY f.score, e.id`;

/**
 * Entities: archived ones must be filtered before the limit, so the match joins entities directly (by rowid, see
 * migration 002) instead of the limited FTS sub-select above.
 */
const ENTITIES_BM25 = 'bm25(entities_fts, 4.0, 3.0, 1.0)';
const entitiesSql = (includeArchived: boolean, bounded: boolean): string => {
  const score = bounded ? ENTITIES_BM25 : 'entities_fts.rank';
  return `SELECT e.id AS entityId, e.name, e.type,
      snippet(entities_fts, -1, @open, @close, '…', ${SNIPPET_TOKENS}) AS snippet, ${score} AS score
    FROM entities_fts JOIN entities e ON e.rowid = entities_fts.rowid
    WHERE entities_fts MATCH @match ${includeArchived ? '' : "AND e.tier <> 'archived'"}
      ${bounded ? 'AND entities_fts.rowid > @after' : ''}
    ORDER BY ${score}, e.id
    LIMIT @limit`;
};

const TRANSITIONS_RANK = ranking('transitions_fts', '');
const transitionsSql = (b: boolean): string => `SELECT t.id AS transitionId, t.entity_id AS entityId,
    t.event_time AS eventTime, f.snippet, f.score
  FROM (SELECT rowid AS rid, snippet(transitions_fts, 0, @open, @close, '…', ${SNIPPET_TOKENS}) AS snippet,
          ${TRANSITIONS_RANK.score(b)} AS score
        FROM transitions_fts WHERE ${TRANSITIONS_RANK.where(b)} LIMIT @limit) f
  JOIN transitions t ON t.rowid = f.rid
  ORDER BY f.score, t.id`;

type EpisodeRow = Omit<EpisodeHit, 'kind'>;
type EntityRow = Omit<EntityHit, 'kind'>;
type TransitionRow = Omit<TransitionHit, 'kind'>;

function commonParams(query: SearchQuery): Params {
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new PieError('INVALID_ARGUMENT', `The search limit must be an integer from 1 to ${MAX_LIMIT}, got ${limit}.`);
  }
  const [open, close] = query.highlight ?? ['«', '»'];
  return { limit, open, close };
}

/**
 * Prefers hits containing every word; when nothing contains them all, hits containing at least two of them (for
 * three to eight words); then hits containing any word (all BM25-ranked, so more and rarer words come first).
 */
function tieredSearch<R>(query: SearchQuery, index: FtsIndex<R>): R[] {
  const match = buildFtsMatch(query.text);
  if (!match) return [];
  const words = wordsOf(match, index);
  const limit = query.limit ?? DEFAULT_LIMIT;
  const run = (expr: string) => (words.large ? budgeted(expr, words, limit, index) : index.run(expr, null));
  if (query.mode === 'fill') return fillTiers(words, limit, index.keyOf, run);
  const strict = run(match.all);
  if (strict.length > 0 || match.any === null) return strict;
  // Two words in common before any one word: fewer, better matches, and far less BM25 work when one of the words
  // is common (a question's "work" or "project" matches a large part of a heavy user's history).
  const pairs = words.pairs();
  if (pairs !== null) {
    const some = run(pairs);
    if (some.length > 0) return some;
  }
  const rare = words.rare();
  return rare === null ? [] : run(rare);
}

/**
 * Ranks an expression in a large index with bounded work. Up to RANK_BUDGET matches: all of them. Beyond: first the
 * matches that contain one of the expression's informative words (its rarest words, as many as have at most
 * RANK_BUDGET rows in all), whatever their age, so a rare word's old conversation is never lost; then, if that
 * leaves room, the newest RANK_BUDGET matches.
 */
function budgeted<R>(expr: string, words: Words, limit: number, index: FtsIndex<R>): R[] {
  const after = index.after(expr);
  if (after === null) return index.run(expr, null);
  const informative = words.informative(expr);
  const out = informative === null ? [] : index.run(`(${expr}) AND (${informative})`, null);
  if (out.length >= limit) return out;
  const seen = new Set(out.map(index.keyOf));
  for (const r of index.run(expr, after)) if (!seen.has(index.keyOf(r))) out.push(r);
  return out.slice(0, limit);
}

/** One FTS index as the tiered search sees it. */
interface FtsIndex<R> {
  keyOf(r: R): string;
  /** The ranked hits of an expression; with `after`, only among rows whose rowid is greater. */
  run(match: string, after: number | null): R[];
  /** Rows that contain the phrase, and rows in the index (about), to tell common words from rare ones. */
  docs(phrase: string): number;
  size(): number;
  /** The rowid to rank after when the expression matches more than RANK_BUDGET rows; null when it does not. */
  after(match: string): number | null;
}

/** Below this many rows every word is cheap to rank; above it, words in more than COMMON_SHARE of rows are skipped. */
export const SMALL_INDEX = 5000;
export const COMMON_SHARE = 0.05;
/**
 * In a large index, an expression matching more rows than this ranks only the most recently stored ones (highest
 * rowid): BM25 costs about a microsecond per matched row and phrase, so a common word in a heavy history would
 * cost tens of milliseconds, and words that common say little about which row is best anyway.
 */
export const RANK_BUDGET = 3000;
/**
 * In a large index the two-word tier pairs only this many of the question's words, the rarest (when the words
 * match more than RANK_BUDGET rows in all): evaluating every pair of eight words costs tens of milliseconds.
 */
export const PAIR_WORDS = 4;

/** The words of a match with what the index knows about them, computed once per search. */
interface Words {
  match: FtsMatch;
  large: boolean;
  /** The two-word tier (in a large index, of the PAIR_WORDS rarest words only). */
  pairs(): string | null;
  /** The any-word tier without the words in over COMMON_SHARE of a large index's rows. */
  rare(): string | null;
  /** OR of the rarest words of `expr` that match at most RANK_BUDGET rows together; null when even one is more. */
  informative(expr: string): string | null;
}

function wordsOf(match: FtsMatch, index: Pick<FtsIndex<unknown>, 'docs' | 'size'>): Words {
  const size = index.size();
  const large = size >= SMALL_INDEX;
  let counts: Map<string, number> | null = null;
  const docs = (): Map<string, number> => (counts ??= new Map(match.phrases.map((p) => [p, index.docs(p)])));
  return {
    match,
    large,
    pairs: () => {
      if (!large || match.pairs === null) return match.pairs;
      // Few matches in all: every pair is cheap to rank.
      if ([...docs().values()].reduce((a, b) => a + b, 0) <= RANK_BUDGET) return match.pairs;
      const byRarity = [...match.phrases].sort((a, b) => (docs().get(a) ?? 0) - (docs().get(b) ?? 0));
      const kept = new Set(byRarity.slice(0, PAIR_WORDS));
      return pairsOf(match.phrases.filter((p) => kept.has(p)));
    },
    informative: (expr) => {
      const inExpr = match.phrases.filter((p) => expr.includes(p));
      const byRarity = inExpr.sort((a, b) => (docs().get(a) ?? 0) - (docs().get(b) ?? 0));
      const kept: string[] = [];
      let total = 0;
      for (const p of byRarity) {
        total += docs().get(p) ?? 0;
        if (total > RANK_BUDGET) break;
        kept.push(p);
      }
      return kept.length > 0 ? kept.join(' OR ') : null;
    },
    rare: () => {
      if (match.any === null || !large) return match.any;
      const rare = match.phrases.filter((p) => (docs().get(p) ?? 0) <= size * COMMON_SHARE);
      return rare.length > 0 ? rare.join(' OR ') : null;
    },
  };
}

/**
 * Every tier in turn (all words, two words, any word), each adding what the earlier ones missed, up to the limit.
 * In a large index the any-word tier leaves out words found in more than 5% of rows: ranking every row that has a
 * common word costs hundreds of milliseconds and says little (their IDF is near zero anyway).
 */
function fillTiers<R>(words: Words, limit: number, keyOf: (r: R) => string, run: (expr: string) => R[]): R[] {
  const out: R[] = [];
  const seen = new Set<string>();
  const tiers = [() => words.match.all, () => words.pairs(), () => words.rare()];
  for (const tier of tiers) {
    const expr = tier();
    if (expr === null) continue;
    for (const r of run(expr)) {
      const key = keyOf(r);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(r);
    }
    if (out.length >= limit) break;
  }
  return out.slice(0, limit);
}

/** Word counts kept per index; past this many the cache starts over. */
const MAX_CACHED_COUNTS = 5000;
/** A cached word count is used while the index has grown or shrunk by at most this share since it was counted. */
const COUNT_DRIFT = 0.01;

/**
 * Counting matches of one phrase walks its doclist without ranking: up to a millisecond or two for a common word,
 * so counts are cached per index and counted again once the index has changed size by over 1% (they only tell
 * common words from rare ones; a count slightly off changes nothing that matters).
 */
function sizing(s: Statements, fts: string, table: string): Pick<FtsIndex<unknown>, 'docs' | 'size' | 'after'> {
  const counts = new Map<string, { n: number; size: number }>();
  const size = (): number => Number(s.pluck(`SELECT coalesce(max(rowid), 0) FROM ${table}`).get());
  return {
    docs: (phrase) => {
      const now = size();
      const cached = counts.get(phrase);
      if (cached && Math.abs(now - cached.size) <= now * COUNT_DRIFT) return cached.n;
      const n = Number(s.pluck(`SELECT count(*) FROM ${fts} WHERE ${fts} MATCH ?`).get(phrase));
      if (counts.size >= MAX_CACHED_COUNTS) counts.clear();
      counts.set(phrase, { n, size: now });
      return n;
    },
    // max(rowid) is read from the end of the b-tree: a cheap upper bound of the row count.
    size,
    // Walking the matches newest first without ranking them is cheap; the row RANK_BUDGET places down is the bound.
    after: (match) => {
      const row = s
        .pluck(`SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ${RANK_BUDGET}`)
        .get(match) as number | undefined;
      return row ?? null;
    },
  };
}

/** Runs one of the index's two statements: ranked over every match, or only after a rowid. */
function runner<Row, R>(s: Statements, sql: (bounded: boolean) => string, params: Params, hit: (row: Row) => R) {
  return (match: string, after: number | null): R[] => {
    const rows = s.get(sql(after !== null)).all({ ...params, match, ...(after === null ? {} : { after }) }) as Row[];
    return rows.map(hit);
  };
}

export function createSearchRepo(s: Statements): SyncOf<SearchRepo> {
  const turnsSize = sizing(s, 'turns_fts', 'turns');
  const episodesSize = sizing(s, 'episodes_fts', 'episodes');
  const entitiesSize = sizing(s, 'entities_fts', 'entities');
  const transitionsSize = sizing(s, 'transitions_fts', 'transitions');
  const turnRanking = createTurnRanking(s, TURNS_RANK);
  return {
    turns(query) {
      const params = commonParams(query);
      const ranked = turnRanking({
        limit: params.limit as number,
        open: params.open as string,
        close: params.close as string,
        snippets: query.snippets !== false,
      });
      return tieredSearch(query, {
        ...turnsSize,
        after: (match) => ranked.after(match, turnsSize.after),
        keyOf: (r) => `${r.episodeId}#${r.seq}`,
        run: (match, after) => ranked.run(match, after).map((row) => ({ kind: 'turn' as const, ...row })),
      });
    },

    episodes(query) {
      return tieredSearch(query, {
        ...episodesSize,
        keyOf: (r) => r.episodeId,
        run: runner(s, episodesSql, commonParams(query), (row: EpisodeRow) => ({ kind: 'episode' as const, ...row })),
      });
    },

    entities(query) {
      const includeArchived = query.includeArchived === true;
      return tieredSearch(query, {
        ...entitiesSize,
        keyOf: (r) => r.entityId,
        run: runner(
          s,
          (b) => entitiesSql(includeArchived, b),
          commonParams(query),
          (row: EntityRow) => ({
            kind: 'entity' as const,
            ...row,
          }),
        ),
      });
    },

    transitions(query) {
      return tieredSearch(query, {
        ...transitionsSize,
        keyOf: (r) => r.transitionId,
        run: runner(s, transitionsSql, commonParams(query), (row: TransitionRow) => ({
          kind: 'transition' as const,
          ...row,
        })),
      });
    },
  };
}
