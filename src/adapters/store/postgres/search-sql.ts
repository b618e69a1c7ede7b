import { RANK_BUDGET } from '../sqlite/search.js';

/** ts_headline marks matches with these; they are swapped for the caller's markers afterwards. */
export const OPEN = '\u0002';
export const CLOSE = '\u0003';
const HEADLINE = `'StartSel=${OPEN}, StopSel=${CLOSE}, MaxWords=16, MinWords=6, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "'`;

/**
 * A searched table. Its matches are ranked by a query that reads only `rankColumns` and returns the `key` of the
 * best @limit rows (with their score and the tsquery); the hit's columns and its ts_headline are read for those
 * rows only, in an outer query (`hits`), so the costly parts (headlines, joins, wide rows) never touch the rest.
 */
export interface Source {
  table: string;
  alias: string;
  /** The column rows were stored in the order of (the newest matches are the highest). */
  order: string;
  /** A unique column identifying a row. */
  key: string;
  /** What the ranking reads: the key, the tie-breaking columns, the search column and any filter's columns. */
  rankColumns: string;
  /** The order among equal scores (a unique one). */
  tie: string;
  /** The hit's columns and snippet, read from `alias` (and `h.q`, `h.score`) for the ranked rows. */
  hits: (ranked: string) => string;
}

const headline = (text: string): string => `ts_headline('english', ${text}, h.q, ${HEADLINE}) AS snippet`;

export const TURNS: Source = {
  table: 'turns',
  alias: 't',
  order: 'id',
  key: 'id',
  rankColumns: 'id, episode_id, seq, search_tsv',
  tie: 't.episode_id, t.seq',
  hits: (ranked) => `SELECT t.episode_id AS "episodeId", e.title AS "episodeTitle", e.created_at AS "episodeTime",
    t.seq, t.role, t.time, ${headline('t.text')}, h.score
  FROM (${ranked}) h JOIN turns t ON t.id = h.hit_key JOIN episodes e ON e.id = t.episode_id
  ORDER BY h.score, t.episode_id, t.seq`,
};

export const EPISODES: Source = {
  table: 'episodes',
  alias: 'e',
  order: 'rid',
  key: 'id',
  rankColumns: 'id, search_tsv',
  tie: 'e.id',
  hits: (ranked) => `SELECT e.id AS "episodeId", e.title, e.created_at AS time,
    ${headline("concat_ws(' … ', e.title, e.summary)")}, h.score
  FROM (${ranked}) h JOIN episodes e ON e.id = h.hit_key
  ORDER BY h.score, e.id`,
};

export const ENTITIES: Source = {
  table: 'entities',
  alias: 'e',
  order: 'ord',
  key: 'id',
  rankColumns: 'id, tier, search_tsv',
  tie: 'e.id',
  hits: (ranked) => `SELECT e.id AS "entityId", e.name, e.type, ${headline('e.search_text')}, h.score
  FROM (${ranked}) h JOIN entities e ON e.id = h.hit_key
  ORDER BY h.score, e.id`,
};

export const TRANSITIONS: Source = {
  table: 'transitions',
  alias: 't',
  order: 'ord',
  key: 'id',
  rankColumns: 'id, search_tsv',
  tie: 't.id',
  hits: (ranked) => `SELECT t.id AS "transitionId", t.entity_id AS "entityId", t.event_time AS "eventTime",
    ${headline('t.summary')}, h.score
  FROM (${ranked}) h JOIN transitions t ON t.id = h.hit_key
  ORDER BY h.score, t.id`,
};

/**
 * The best @limit matches of tsquery `q` among `from` (the table, or `newestMatches`), as a search's hits. Scores
 * are negated ts_rank values, so lower is better as with SQLite's BM25. ts_rank is not BM25: the order of hits
 * with equal ranks, and ranks between documents of very different lengths, may differ from SQLite's. Weights:
 * ts_rank's defaults (A 1.0, B 0.4, C 0.2): episode titles above summaries, entity names above aliases above state
 * values. `filter` is more SQL for the WHERE clause, on `source.alias`.
 */
export function searchSql(input: { source: Source; q: string; from: string; filter?: string }): string {
  const { source, q, from } = input;
  const a = source.alias;
  const ranked = `SELECT ${a}.${source.key} AS hit_key, q.q, -ts_rank(${a}.search_tsv, q.q) AS score
    FROM (SELECT ${q} AS q) q, ${from}
    WHERE ${a}.search_tsv @@ q.q ${input.filter ?? ''}
    ORDER BY score, ${source.tie} LIMIT @limit`;
  return source.hits(ranked);
}

/** The whole table, to rank every match. */
export const wholeTable = (source: Source): string => `${source.table} ${source.alias}`;

/**
 * The newest RANK_BUDGET rows matching `expr`, with the columns the ranking reads. `sortMatches` collects every
 * match through the search index and sorts them (cheap when matches are few); otherwise the planner may walk the
 * table's order index from the newest row, testing each, which is cheap when matches are dense among recent rows
 * and costly when they are sparse (see `sortMatches` in search-budget.ts). `+ 0` keeps the planner off that index.
 */
export function newestMatches(input: { source: Source; expr: string; sortMatches: boolean }): string {
  const { source } = input;
  const order = input.sortMatches ? `${source.order} + 0` : source.order;
  return (
    `(SELECT ${source.rankColumns} FROM ${source.table} WHERE search_tsv @@ (${input.expr}) ` +
    `ORDER BY ${order} DESC LIMIT ${RANK_BUDGET}) ${source.alias}`
  );
}
