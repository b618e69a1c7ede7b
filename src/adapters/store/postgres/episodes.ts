import { episodeIdFor, type Turn } from '../../../domain/conversation.js';
import { PieError } from '../../../domain/errors.js';
import type { StoredTurn } from '../../../domain/world.js';
import type { EpisodeRepo, UpsertOutcome } from '../../../ports/world-store.js';
import { episodeFromRow } from '../sqlite/episodes.js';
import { PAGE, inIdOrder, notFound, pageParams, toJson, wholeTimes, type Params, type Sql } from './sql.js';
import { EXTRACTION_STATUSES, listFilter, ORDER, turnFromRow, type TurnRow } from '../sqlite/episodes.js';

type EpisodeRow = Parameters<typeof episodeFromRow>[0];

/** The SQLite store's filter, with its time bounds (`created_at >= @since`, `< @until`) whole numbers. */
function episodeFilter(query: Parameters<typeof listFilter>[0]): { where: string; params: Params } {
  const { where, params } = listFilter(query);
  return { where, params: wholeTimes(params, { since: 'ceil', until: 'ceil' }) };
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

/** All turns of an episode in one statement: parallel arrays unnested into rows. */
const INSERT_TURNS = `INSERT INTO turns (episode_id, seq, role, text, time, speaker, external_id, attachments, meta)
  SELECT @episodeId, t.seq, t.role, t.text, t.time, t.speaker, t.external_id, t.attachments, t.meta
  FROM unnest(@seqs::int[], @roles::text[], @texts::text[], @times::bigint[], @speakers::text[],
    @externalIds::text[], @attachments::text[], @metas::text[])
    AS t (seq, role, text, time, speaker, external_id, attachments, meta)`;

const ANNOTATE = `UPDATE episodes SET
    summary = CASE WHEN @setSummary::boolean THEN @summary::text ELSE summary END,
    significance = CASE WHEN @setSignificance::boolean THEN @significance::double precision ELSE significance END,
    user_state = CASE WHEN @setUserState::boolean THEN @userState::text ELSE user_state END
  WHERE id = @id`;

function turnParams(episodeId: string, turns: readonly Turn[]): Params {
  return {
    episodeId,
    seqs: turns.map((_t, seq) => seq),
    roles: turns.map((t) => t.role),
    texts: turns.map((t) => t.text),
    times: turns.map((t) => t.time) as unknown as number[],
    speakers: turns.map((t) => t.speaker ?? null) as unknown as string[],
    externalIds: turns.map((t) => t.externalId ?? null) as unknown as string[],
    attachments: turns.map((t) =>
      t.attachments && t.attachments.length > 0 ? toJson(t.attachments) : null,
    ) as unknown as string[],
    metas: turns.map((t) => toJson(t.meta ?? {})),
  };
}

export function createEpisodeRepo(sql: Sql, now: () => number): EpisodeRepo {
  return {
    upsert({ conversation, contentHash, recordedAt, id: fixedId }) {
      const id = fixedId ?? episodeIdFor(conversation);
      return sql.atomic(async (tx) => {
        // Two processes importing the same conversation at once (two pie ingest of one export): FOR UPDATE locks
        // nothing while the row does not exist yet, so both would insert it. A transaction-scoped advisory lock on
        // its id makes the second wait for the first's commit and then find it unchanged.
        await tx.run('SELECT pg_advisory_xact_lock(hashtext(@key))', { key: `pie-episode:${id}` });
        const existing = await tx.one<{ content_hash: string }>(
          'SELECT content_hash FROM episodes WHERE id = @id FOR UPDATE',
          { id },
        );
        if (existing?.content_hash === contentHash) return { id, outcome: 'unchanged' as UpsertOutcome };
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
          await tx.run(INSERT, params);
        } else {
          await tx.run(REPLACE, params);
          await tx.run('DELETE FROM turns WHERE episode_id = @id', { id });
        }
        if (conversation.turns.length > 0) await tx.run(INSERT_TURNS, turnParams(id, conversation.turns));
        return { id, outcome: (existing === undefined ? 'inserted' : 'updated') as UpsertOutcome };
      });
    },

    async get(id) {
      const row = await sql.one<EpisodeRow>(`SELECT ${COLUMNS} FROM episodes WHERE id = @id`, { id });
      return row ? episodeFromRow(row) : null;
    },

    async getMany(ids) {
      const rows = await sql.all<EpisodeRow>(`SELECT ${COLUMNS} FROM episodes WHERE id = ANY(@ids::text[])`, { ids });
      return inIdOrder(ids, rows.map(episodeFromRow), (episode) => episode.id);
    },

    async list(query) {
      const { where, params } = episodeFilter(query);
      const order = ORDER[query?.order ?? 'asc'] as string | undefined;
      if (order === undefined)
        throw new PieError('INVALID_ARGUMENT', `Unknown episode order "${String(query?.order)}".`);
      const rows = await sql.all<EpisodeRow>(`SELECT ${COLUMNS} FROM episodes ${where} ORDER BY ${order} ${PAGE}`, {
        ...params,
        ...pageParams(query),
      });
      return rows.map(episodeFromRow);
    },

    async count(query) {
      const { where, params } = episodeFilter(query);
      const row = await sql.one<{ n: number }>(`SELECT count(*) AS n FROM episodes ${where}`, params);
      return Number(row?.n ?? 0);
    },

    async turns(episodeId) {
      const rows = await sql.all<TurnRow>(
        `SELECT episode_id, seq, role, text, time, speaker, external_id, attachments, meta
         FROM turns WHERE episode_id = @episodeId ORDER BY seq`,
        { episodeId },
      );
      return rows.map(turnFromRow);
    },

    async turnsOfMany(episodeIds) {
      const out = new Map<string, StoredTurn[]>(episodeIds.map((id) => [id, []]));
      const rows = await sql.all<TurnRow>(
        `SELECT episode_id, seq, role, text, time, speaker, external_id, attachments, meta
         FROM turns WHERE episode_id = ANY(@ids::text[]) ORDER BY episode_id, seq`,
        { ids: [...out.keys()] },
      );
      for (const row of rows) out.get(row.episode_id)?.push(turnFromRow(row));
      return out;
    },

    async setExtraction({ ids, status }) {
      if (!EXTRACTION_STATUSES.includes(status)) {
        throw new PieError('INVALID_ARGUMENT', `Unknown extraction status "${String(status)}".`);
      }
      await sql.atomic(async (tx) => {
        const updated = await tx.all<{ id: string }>(
          'UPDATE episodes SET extraction = @status, extraction_at = @at WHERE id = ANY(@ids::text[]) RETURNING id',
          { status, at: now(), ids },
        );
        const found = new Set(updated.map((r) => r.id));
        const missing = [...new Set(ids)].filter((id) => !found.has(id));
        if (missing.length > 0) {
          throw new PieError('NOT_FOUND', `No episode with id ${missing.map((m) => `"${m}"`).join(', ')}.`, {
            details: { ids: missing },
          });
        }
      });
    },

    async annotate(input) {
      const n = await sql.run(ANNOTATE, {
        id: input.id,
        setSummary: input.summary !== undefined,
        summary: input.summary ?? null,
        setSignificance: input.significance !== undefined,
        significance: input.significance ?? null,
        setUserState: input.userState !== undefined,
        userState: input.userState ?? null,
      });
      if (n === 0) throw notFound('episode', input.id);
    },
  };
}
