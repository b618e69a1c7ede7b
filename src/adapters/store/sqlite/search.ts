import { PieError } from '../../../domain/errors.js';
import type {
  EntityHit,
  EpisodeHit,
  SearchQuery,
  SearchRepo,
  TransitionHit,
  TurnHit,
} from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { buildFtsMatch, type FtsMatch } from './fts-query.js';
import type { Params, Statements } from './sql.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;
const SNIPPET_TOKENS = 16;

/**
 * The FTS part runs first (ordered by `rank`, i.e. BM25, limited), then joins to its rows. BM25 here is
 * lower-is-better; for episodes `rank` is configured in migration 001 to weigh titles twice as much as summaries.
 */
const TURNS = `SELECT t.episode_id AS episodeId, e.title AS episodeTitle, e.created_at AS episodeTime, t.seq, t.role,
    t.time, f.snippet, f.score
  FROM (SELECT rowid AS id, snippet(turns_fts, 0, @open, @close, '…', ${SNIPPET_TOKENS}) AS snippet,
          rank AS score
        FROM turns_fts WHERE turns_fts MATCH @match ORDER BY rank LIMIT @limit) f
  JOIN turns t ON t.id = f.id
  JOIN episodes e ON e.id = t.episode_id
  ORDER BY f.score, t.episode_id, t.seq`;

const EPISODES = `SELECT e.id AS episodeId, e.title, e.created_at AS time, f.snippet, f.score
  FROM (SELECT rowid AS rid, snippet(episodes_fts, -1, @open, @close, '…', ${SNIPPET_TOKENS}) AS snippet,
          rank AS score
        FROM episodes_fts WHERE episodes_fts MATCH @match ORDER BY rank LIMIT @limit) f
  JOIN episodes e ON e.rid = f.rid
  ORDER BY f.score, e.id`;

/**
 * Entities: archived ones must be filtered before the limit, so the match joins entities directly (by rowid, see
 * migration 002) instead of the limited FTS sub-select above. `rank` weighs name 4, aliases 3, state values 1.
 */
const entitiesSql = (includeArchived: boolean): string =>
  `SELECT e.id AS entityId, e.name, e.type,
      snippet(entities_fts, -1, @open, @close, '…', ${SNIPPET_TOKENS}) AS snippet, entities_fts.rank AS score
    FROM entities_fts JOIN entities e ON e.rowid = entities_fts.rowid
    WHERE entities_fts MATCH @match ${includeArchived ? '' : "AND e.tier <> 'archived'"}
    ORDER BY entities_fts.rank, e.id
    LIMIT @limit`;

const TRANSITIONS = `SELECT t.id AS transitionId, t.entity_id AS entityId, t.event_time AS eventTime, f.snippet, f.score
  FROM (SELECT rowid AS rid, snippet(transitions_fts, 0, @open, @close, '…', ${SNIPPET_TOKENS}) AS snippet,
          rank AS score
        FROM transitions_fts WHERE transitions_fts MATCH @match ORDER BY rank LIMIT @limit) f
  JOIN transitions t ON t.rowid = f.rid
  ORDER BY f.score, t.id`;

type TurnRow = Omit<TurnHit, 'kind'>;
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
  const { run } = index;
  const match = buildFtsMatch(query.text);
  if (!match) return [];
  if (query.mode === 'fill') return fillTiers(match, query.limit ?? DEFAULT_LIMIT, index);
  const strict = run(match.all);
  if (strict.length > 0 || match.any === null) return strict;
  // Two words in common before any one word: fewer, better matches, and far less BM25 work when one of the words
  // is common (a question's "work" or "project" matches a large part of a heavy user's history).
  if (match.pairs !== null) {
    const some = run(match.pairs);
    if (some.length > 0) return some;
  }
  const rare = rareWords(match, index);
  return rare === null ? [] : run(rare);
}

/** One FTS index as the tiered search sees it. */
interface FtsIndex<R> {
  keyOf(r: R): string;
  run(match: string): R[];
  /** Rows that contain the phrase, and rows in the index (about), to tell common words from rare ones. */
  docs(phrase: string): number;
  size(): number;
}

/** Below this many rows every word is cheap to rank; above it, words in more than COMMON_SHARE of rows are skipped. */
const SMALL_INDEX = 5000;
const COMMON_SHARE = 0.05;

/**
 * Every tier in turn (all words, two words, any word), each adding what the earlier ones missed, up to the limit.
 * In a large index the any-word tier leaves out words found in more than 5% of rows: ranking every row that has a
 * common word costs hundreds of milliseconds and says little (their IDF is near zero anyway).
 */
function fillTiers<R>(match: FtsMatch, limit: number, index: FtsIndex<R>): R[] {
  const out: R[] = [];
  const seen = new Set<string>();
  const { keyOf, run } = index;
  for (const expr of [match.all, match.pairs, rareWords(match, index)]) {
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

function rareWords<R>(match: FtsMatch, index: FtsIndex<R>): string | null {
  if (match.any === null) return null;
  const size = index.size();
  if (size < SMALL_INDEX) return match.any;
  const rare = match.phrases.filter((p) => index.docs(p) <= size * COMMON_SHARE);
  return rare.length > 0 ? rare.join(' OR ') : null;
}

/** Counting matches of one phrase walks its doclist without ranking: a few milliseconds even for common words. */
function sizing(s: Statements, fts: string, table: string): Pick<FtsIndex<unknown>, 'docs' | 'size'> {
  return {
    docs: (phrase) => Number(s.pluck(`SELECT count(*) FROM ${fts} WHERE ${fts} MATCH ?`).get(phrase)),
    // max(rowid) is read from the end of the b-tree: a cheap upper bound of the row count.
    size: () => Number(s.pluck(`SELECT coalesce(max(rowid), 0) FROM ${table}`).get()),
  };
}

export function createSearchRepo(s: Statements): SyncOf<SearchRepo> {
  const turnsSize = sizing(s, 'turns_fts', 'turns');
  const episodesSize = sizing(s, 'episodes_fts', 'episodes');
  const entitiesSize = sizing(s, 'entities_fts', 'entities');
  const transitionsSize = sizing(s, 'transitions_fts', 'transitions');
  return {
    turns(query) {
      const params = commonParams(query);
      return tieredSearch(query, {
        ...turnsSize,
        keyOf: (r) => `${r.episodeId}#${r.seq}`,
        run: (match) =>
          (s.get(TURNS).all({ ...params, match }) as TurnRow[]).map((row) => ({ kind: 'turn' as const, ...row })),
      });
    },

    episodes(query) {
      const params = commonParams(query);
      return tieredSearch(query, {
        ...episodesSize,
        keyOf: (r) => r.episodeId,
        run: (match) =>
          (s.get(EPISODES).all({ ...params, match }) as EpisodeRow[]).map((row) => ({
            kind: 'episode' as const,
            ...row,
          })),
      });
    },

    entities(query) {
      const params = commonParams(query);
      const sql = entitiesSql(query.includeArchived === true);
      return tieredSearch(query, {
        ...entitiesSize,
        keyOf: (r) => r.entityId,
        run: (match) =>
          (s.get(sql).all({ ...params, match }) as EntityRow[]).map((row) => ({ kind: 'entity' as const, ...row })),
      });
    },

    transitions(query) {
      const params = commonParams(query);
      return tieredSearch(query, {
        ...transitionsSize,
        keyOf: (r) => r.transitionId,
        run: (match) =>
          (s.get(TRANSITIONS).all({ ...params, match }) as TransitionRow[]).map((row) => ({
            kind: 'transition' as const,
            ...row,
          })),
      });
    },
  };
}
