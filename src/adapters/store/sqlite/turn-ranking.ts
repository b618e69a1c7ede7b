import type { TurnHit } from '../../../ports/world-store.js';
import type { Statements } from './sql.js';
import { createRevision } from './stats.js';

type TurnRow = Omit<TurnHit, 'kind'>;

/** The ranking part of a turn search: the FTS sub-select's MATCH, rowid bound and order; its score column. */
export interface TurnRanking {
  where: (bounded: boolean) => string;
  score: (bounded: boolean) => string;
}

/**
 * Ranked turns remembered per expression, at least: the deepest evidence pool (query/evidence.ts EVIDENCE_POOL),
 * so the lexical lane's search (60 turns) serves the evidence's search of the same words (100 to 400).
 */
export const RANK_DEPTH = 400;
/** Rankings remembered while the memory is unchanged; past this many the memory starts over. */
const MAX_RANKINGS = 64;

interface Ranked {
  id: number;
  score: number;
}

const SNIPPET_TOKENS = 16;

const rowsSql = `SELECT t.id, t.episode_id AS episodeId, e.title AS episodeTitle, e.created_at AS episodeTime, t.seq,
    t.role, t.time
  FROM turns t JOIN episodes e ON e.id = t.episode_id
  WHERE t.id IN (SELECT value FROM json_each(@ids))`;

/**
 * Snippets of the kept turns only, in one walk over the expression's matches between the lowest and highest kept
 * rowid (`+` keeps SQLite from running the MATCH once per id, which costs more than the walk).
 */
const snippetsSql = `SELECT rowid AS id, snippet(turns_fts, 0, @open, @close, '…', ${SNIPPET_TOKENS}) AS snippet
  FROM turns_fts
  WHERE turns_fts MATCH @match AND turns_fts.rowid >= @lo AND turns_fts.rowid <= @hi
    AND +turns_fts.rowid IN (SELECT value FROM json_each(@ids))`;

/**
 * Turn searches that rank each expression once while the memory is unchanged. One question searches the same words
 * twice (the lexical lane for 60 turns with snippets, the evidence for 100 to 400 without): each tier's BM25 ranking
 * of up to RANK_BUDGET rows is the cost, and the second search takes its turns from the first one's ranking.
 *
 * The hits are those the single statement of search.ts returns: SQLite orders `ORDER BY score LIMIT n` by score,
 * then by the order rows were scanned (ascending rowid; its LIMIT sorter keys rows by a sequence number, and FTS5's
 * own rank sorter is stable), so the best n are always the first n of the best RANK_DEPTH. Their rows are read and
 * ordered as that statement orders them (score, episode id in SQLite's BINARY collation, seq), and their snippets
 * are cut from the same expression. Nothing is remembered inside a transaction (it may roll back); the memory is
 * emptied whenever WorldStore.revision moves (a write through this connection or a commit by another).
 */
export function createTurnRanking(s: Statements, ranking: TurnRanking) {
  const revision = createRevision(s);
  const rankings = new Map<string, { depth: number; hits: Ranked[] }>();
  const afters = new Map<string, number | null>();
  let at: string | null = null;
  const rankSql = (bounded: boolean): string =>
    `SELECT rowid AS id, ${ranking.score(bounded)} AS score FROM turns_fts WHERE ${ranking.where(bounded)} LIMIT @limit`;

  /** The searches of one call: remembering only outside a transaction, with a memory of the current revision. */
  return function scope(params: { limit: number; open: string; close: string; snippets: boolean }) {
    const remember = !s.db.inTransaction;
    if (remember) {
      const now = revision();
      if (now !== at) {
        rankings.clear();
        afters.clear();
        at = now;
      }
    }
    const ranked = (match: string, after: number | null): Ranked[] => {
      const key = `${after ?? ''}:${match}`;
      const known = remember ? rankings.get(key) : undefined;
      // A ranking shorter than its depth holds every match.
      if (known && (known.depth >= params.limit || known.hits.length < known.depth)) {
        return known.hits.slice(0, params.limit);
      }
      const depth = remember ? Math.max(params.limit, RANK_DEPTH) : params.limit;
      const hits = s
        .get(rankSql(after !== null))
        .all({ match, limit: depth, ...(after === null ? {} : { after }) }) as Ranked[];
      if (remember) keep(rankings, key, { depth, hits });
      return hits.slice(0, params.limit);
    };
    return {
      /** The rowid bound of `sizing().after`, remembered like the rankings. */
      after(match: string, find: (match: string) => number | null): number | null {
        if (!remember) return find(match);
        const known = afters.get(match);
        if (known !== undefined) return known;
        return keep(afters, match, find(match));
      },
      run(match: string, after: number | null): TurnRow[] {
        const top = ranked(match, after);
        if (top.length === 0) return [];
        const ids = JSON.stringify(top.map((h) => h.id));
        const rows = s.get(rowsSql).all({ ids }) as (Omit<TurnRow, 'snippet' | 'score'> & { id: number })[];
        const scores = new Map(top.map((h) => [h.id, h.score]));
        let snippets: Map<number, string> | null = null;
        if (params.snippets) {
          const found = s.get(snippetsSql).all({
            match,
            open: params.open,
            close: params.close,
            lo: Math.min(...top.map((h) => h.id)),
            hi: Math.max(...top.map((h) => h.id)),
            ids,
          }) as { id: number; snippet: string }[];
          snippets = new Map(found.map((r) => [r.id, r.snippet]));
        }
        return rows
          .map((r): TurnRow => ({
            episodeId: r.episodeId,
            episodeTitle: r.episodeTitle,
            episodeTime: r.episodeTime,
            seq: r.seq,
            role: r.role,
            time: r.time,
            snippet: snippets ? (snippets.get(r.id) ?? '') : '',
            score: scores.get(r.id) ?? 0,
          }))
          .sort((a, b) => a.score - b.score || binaryOrder(a.episodeId, b.episodeId) || a.seq - b.seq);
      },
    };
  };
}

/** Remembers a value in a memory of at most MAX_RANKINGS entries (a full one starts over); returns the value. */
function keep<V>(memory: Map<string, V>, key: string, value: V): V {
  if (memory.size >= MAX_RANKINGS) memory.clear();
  memory.set(key, value);
  return value;
}

/** SQLite's BINARY collation: UTF-8 byte order, which is code point order (JavaScript's < compares UTF-16 units). */
function binaryOrder(a: string, b: string): number {
  return a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b));
}
