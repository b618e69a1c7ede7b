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
import { buildFtsMatch } from './fts-query.js';
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
function strictThenLoose<R>(text: string, run: (match: string) => R[]): R[] {
  const match = buildFtsMatch(text);
  if (!match) return [];
  const strict = run(match.all);
  if (strict.length > 0 || match.any === null) return strict;
  // Two words in common before any one word: fewer, better matches, and far less BM25 work when one of the words
  // is common (a question's "work" or "project" matches a large part of a heavy user's history).
  if (match.pairs !== null) {
    const some = run(match.pairs);
    if (some.length > 0) return some;
  }
  return run(match.any);
}

export function createSearchRepo(s: Statements): SyncOf<SearchRepo> {
  return {
    turns(query) {
      const params = commonParams(query);
      return strictThenLoose(query.text, (match) =>
        (s.get(TURNS).all({ ...params, match }) as TurnRow[]).map((row) => ({ kind: 'turn' as const, ...row })),
      );
    },

    episodes(query) {
      const params = commonParams(query);
      return strictThenLoose(query.text, (match) =>
        (s.get(EPISODES).all({ ...params, match }) as EpisodeRow[]).map((row) => ({
          kind: 'episode' as const,
          ...row,
        })),
      );
    },

    entities(query) {
      const params = commonParams(query);
      const sql = entitiesSql(query.includeArchived === true);
      return strictThenLoose(query.text, (match) =>
        (s.get(sql).all({ ...params, match }) as EntityRow[]).map((row) => ({ kind: 'entity' as const, ...row })),
      );
    },

    transitions(query) {
      const params = commonParams(query);
      return strictThenLoose(query.text, (match) =>
        (s.get(TRANSITIONS).all({ ...params, match }) as TransitionRow[]).map((row) => ({
          kind: 'transition' as const,
          ...row,
        })),
      );
    },
  };
}
