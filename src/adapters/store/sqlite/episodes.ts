import { episodeIdFor, type Turn } from '../../../domain/conversation.js';
import { PieError } from '../../../domain/errors.js';
import type { Episode, ExtractionStatus, StoredTurn } from '../../../domain/world.js';
import type { EpisodeListQuery, EpisodeRepo, UpsertOutcome } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import {
  IDS_IN,
  PAGE,
  fromJson,
  idsParam,
  inIdOrder,
  notFound,
  pageParams,
  toJson,
  type Params,
  type Statements,
  type Filter,
} from './sql.js';

interface EpisodeRow {
  id: string;
  source: string;
  external_id: string;
  title: string;
  created_at: number;
  updated_at: number;
  model: string | null;
  content_hash: string;
  turn_count: number;
  summary: string | null;
  significance: number | null;
  user_state: string | null;
  extraction: ExtractionStatus;
  recorded_at: number;
  meta: string;
}

export interface TurnRow {
  episode_id: string;
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  time: number | null;
  speaker: string | null;
  external_id: string | null;
  attachments: string | null;
  meta: string;
}

const COLUMNS = `id, source, external_id, title, created_at, updated_at, model, content_hash, turn_count, summary,
  significance, user_state, extraction, recorded_at, meta`;

const INSERT = `INSERT INTO episodes (id, source, external_id, title, created_at, updated_at, model, content_hash,
    turn_count, extraction, recorded_at, meta)
  VALUES (@id, @source, @externalId, @title, @createdAt, @updatedAt, @model, @contentHash, @turnCount, 'pending',
    @recordedAt, @meta)`;

const REPLACE = `UPDATE episodes SET title = @title, created_at = @createdAt, updated_at = @updatedAt, model = @model,
    content_hash = @contentHash, turn_count = @turnCount, extraction = 'pending', extraction_at = NULL,
    recorded_at = @recordedAt, meta = @meta
  WHERE id = @id`;

const INSERT_TURN = `INSERT INTO turns (episode_id, seq, role, text, time, speaker, external_id, attachments, meta)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const ANNOTATE = `UPDATE episodes SET
    summary = CASE WHEN @setSummary THEN @summary ELSE summary END,
    significance = CASE WHEN @setSignificance THEN @significance ELSE significance END,
    user_state = CASE WHEN @setUserState THEN @userState ELSE user_state END
  WHERE id = @id`;

export const EXTRACTION_STATUSES: readonly ExtractionStatus[] = ['pending', 'extracted', 'failed'];

/** Both orders walk the (created_at, id) index, forwards or backwards. */
export const ORDER: Record<NonNullable<EpisodeListQuery['order']>, string> = {
  asc: 'created_at, id',
  desc: 'created_at DESC, id DESC',
};

export function episodeFromRow(row: EpisodeRow): Episode {
  return {
    id: row.id,
    source: row.source,
    externalId: row.external_id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    model: row.model,
    contentHash: row.content_hash,
    turnCount: row.turn_count,
    summary: row.summary,
    significance: row.significance,
    userState: row.user_state,
    extraction: row.extraction,
    recordedAt: row.recorded_at,
    meta: fromJson<Record<string, unknown>>(row.meta, {}),
  };
}

/** A turn's columns in TurnRow's order, for reading turns in raw mode (turnFromValues). */
const TURN_COLUMNS = 'episode_id, seq, role, text, time, speaker, external_id, attachments, meta';

/** A turn read in raw mode: TURN_COLUMNS' values, in their order. */
type TurnValues = [
  TurnRow['episode_id'],
  TurnRow['seq'],
  TurnRow['role'],
  TurnRow['text'],
  TurnRow['time'],
  TurnRow['speaker'],
  TurnRow['external_id'],
  TurnRow['attachments'],
  TurnRow['meta'],
];

/** turnFromRow of a turn read in raw mode (the turn reads are a question's largest: a thousand rows or so). */
function turnFromValues(v: TurnValues): StoredTurn {
  return turnFromRow({
    episode_id: v[0],
    seq: v[1],
    role: v[2],
    text: v[3],
    time: v[4],
    speaker: v[5],
    external_id: v[6],
    attachments: v[7],
    meta: v[8],
  });
}

/** Attachments have no field of their own in StoredTurn; they come back as `meta.attachments`. */
export function turnFromRow(row: TurnRow): StoredTurn {
  const meta = fromJson<Record<string, unknown>>(row.meta, {});
  if (row.attachments !== null) meta.attachments = fromJson<unknown>(row.attachments, []);
  return {
    episodeId: row.episode_id,
    seq: row.seq,
    role: row.role,
    text: row.text,
    time: row.time,
    speaker: row.speaker,
    externalId: row.external_id,
    meta,
  };
}

export function listFilter(query: EpisodeListQuery | undefined): Filter {
  const clauses: string[] = [];
  const params: Filter['params'] = {};
  if (query?.extraction !== undefined) {
    clauses.push('extraction = @extraction');
    params.extraction = query.extraction;
  }
  if (query?.source !== undefined) {
    clauses.push('source = @source');
    params.source = query.source;
  }
  if (query?.since !== undefined) {
    clauses.push('created_at >= @since');
    params.since = query.since;
  }
  if (query?.until !== undefined) {
    clauses.push('created_at < @until');
    params.until = query.until;
  }
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export function createEpisodeRepo(s: Statements, now: () => number): SyncOf<EpisodeRepo> {
  const insertTurns = (episodeId: string, turns: readonly Turn[]): void => {
    const statement = s.get(INSERT_TURN);
    turns.forEach((turn, seq) => {
      statement.run(
        episodeId,
        seq,
        turn.role,
        turn.text,
        turn.time,
        turn.speaker ?? null,
        turn.externalId ?? null,
        turn.attachments && turn.attachments.length > 0 ? toJson(turn.attachments) : null,
        toJson(turn.meta ?? {}),
      );
    });
  };

  return {
    upsert({ conversation, contentHash, recordedAt, id: fixedId }) {
      const id = fixedId ?? episodeIdFor(conversation);
      return s.atomic(() => {
        const existing = s.pluck('SELECT content_hash FROM episodes WHERE id = ?').get(id) as string | undefined;
        if (existing === contentHash) return { id, outcome: 'unchanged' as UpsertOutcome };
        const params: Params = {
          id,
          source: conversation.source,
          externalId: conversation.externalId,
          title: conversation.title,
          createdAt: conversation.createdAt,
          updatedAt: conversation.updatedAt,
          model: conversation.model,
          contentHash,
          turnCount: conversation.turns.length,
          recordedAt,
          meta: toJson(conversation.meta ?? {}),
        };
        if (existing === undefined) {
          s.get(INSERT).run(params);
          insertTurns(id, conversation.turns);
          return { id, outcome: 'inserted' as UpsertOutcome };
        }
        s.get(REPLACE).run(params);
        s.get('DELETE FROM turns WHERE episode_id = ?').run(id);
        insertTurns(id, conversation.turns);
        return { id, outcome: 'updated' as UpsertOutcome };
      });
    },

    get(id) {
      const row = s.get(`SELECT ${COLUMNS} FROM episodes WHERE id = ?`).get(id) as EpisodeRow | undefined;
      return row ? episodeFromRow(row) : null;
    },

    getMany(ids) {
      const rows = s
        .get(`SELECT ${COLUMNS} FROM episodes WHERE id ${IDS_IN}`)
        .all({ ids: idsParam(ids) }) as EpisodeRow[];
      return inIdOrder(ids, rows.map(episodeFromRow), (episode) => episode.id);
    },

    list(query) {
      const { where, params } = listFilter(query);
      const order = ORDER[query?.order ?? 'asc'] as string | undefined;
      if (order === undefined)
        throw new PieError('INVALID_ARGUMENT', `Unknown episode order "${String(query?.order)}".`);
      const rows = s
        .get(`SELECT ${COLUMNS} FROM episodes ${where} ORDER BY ${order} ${PAGE}`)
        .all({ ...params, ...pageParams(query) }) as EpisodeRow[];
      return rows.map(episodeFromRow);
    },

    count(query) {
      const { where, params } = listFilter(query);
      return Number(s.pluck(`SELECT count(*) FROM episodes ${where}`).get(params));
    },

    turns(episodeId) {
      const rows = s
        .raw(`SELECT ${TURN_COLUMNS} FROM turns WHERE episode_id = ? ORDER BY seq`)
        .all(episodeId) as TurnValues[];
      return rows.map(turnFromValues);
    },

    turnsOfMany(episodeIds) {
      const out = new Map<string, StoredTurn[]>(episodeIds.map((id) => [id, []]));
      const rows = s
        .raw(`SELECT ${TURN_COLUMNS} FROM turns WHERE episode_id ${IDS_IN} ORDER BY episode_id, seq`)
        .all({ ids: idsParam([...out.keys()]) }) as TurnValues[];
      for (const row of rows) out.get(row[0])?.push(turnFromValues(row));
      return out;
    },

    setExtraction({ ids, status }) {
      if (!EXTRACTION_STATUSES.includes(status)) {
        throw new PieError('INVALID_ARGUMENT', `Unknown extraction status "${String(status)}".`);
      }
      s.atomic(() => {
        const statement = s.get('UPDATE episodes SET extraction = ?, extraction_at = ? WHERE id = ?');
        const at = now();
        const missing = ids.filter((id) => statement.run(status, at, id).changes === 0);
        if (missing.length > 0) {
          throw new PieError('NOT_FOUND', `No episode with id ${missing.map((m) => `"${m}"`).join(', ')}.`, {
            details: { ids: missing },
          });
        }
      });
    },

    annotate(input) {
      const result = s.get(ANNOTATE).run({
        id: input.id,
        setSummary: input.summary === undefined ? 0 : 1,
        summary: input.summary ?? null,
        setSignificance: input.significance === undefined ? 0 : 1,
        significance: input.significance ?? null,
        setUserState: input.userState === undefined ? 0 : 1,
        userState: input.userState ?? null,
      });
      if (result.changes === 0) throw notFound('episode', input.id);
    },
  };
}
