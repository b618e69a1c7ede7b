import { PieError } from '../../../domain/errors.js';
import type { MentalModel, PyramidStore } from '../../../ports/pyramid-store.js';
import {
  observationFilter,
  toModel,
  toObservation,
  toSummary,
  type ModelRow,
  type ObservationRow,
  type SummaryRow,
} from '../sqlite/pyramid.js';
import { limitParam, toJson, wholeTimes, type Params, type Sql } from './sql.js';

const OBSERVATION = 'id, text, importance, model_id, entity_id, episode_id, event_time, recorded_at, meta';
const SUMMARY = 'id, model_id, tier, start_at, end_at, text, source_ids, created_at, meta';

/** The SQLite store's filter, with its time bounds (`event_time >= @since`, `< @until`) whole numbers. */
function wholeObservationFilter(query: Parameters<typeof observationFilter>[0]): { where: string; params: Params } {
  const { where, params } = observationFilter(query);
  return { where, params: wholeTimes(params, { since: 'ceil', until: 'ceil' }) };
}

export function createPyramidStore(sql: Sql): PyramidStore {
  const modelByName = async (name: string): Promise<MentalModel | null> => {
    const row = await sql.one<ModelRow>(
      'SELECT id, name, content, updated_at, meta FROM mental_models WHERE name = @name',
      {
        name,
      },
    );
    return row ? toModel(row) : null;
  };

  return {
    async addObservation(o) {
      if (!Number.isFinite(o.importance)) {
        throw new PieError('INVALID_ARGUMENT', `importance must be a number, got ${String(o.importance)}.`);
      }
      const n = await sql.run(
        `INSERT INTO observations (id, text, importance, entity_id, episode_id, event_time, recorded_at, meta, model_id)
         VALUES (@id, @text, @importance, @entityId, @episodeId, @eventTime, @recordedAt, @meta, @modelId)
         ON CONFLICT (id) DO NOTHING`,
        {
          id: o.id,
          text: o.text,
          importance: o.importance,
          entityId: o.entityId,
          episodeId: o.episodeId,
          eventTime: o.eventTime,
          recordedAt: o.recordedAt,
          meta: toJson({ source: o.source }),
          modelId: o.modelId,
        },
      );
      return n > 0;
    },

    async observations(query) {
      const { where, params } = wholeObservationFilter(query);
      const order = query?.order === 'desc' ? 'DESC' : 'ASC';
      const rows = await sql.all<ObservationRow>(
        `SELECT ${OBSERVATION} FROM observations ${where} ORDER BY event_time ${order}, id ${order} LIMIT @limit`,
        { ...params, limit: limitParam(query?.limit) },
      );
      return rows.map(toObservation);
    },

    async countObservations(query) {
      const { where, params } = wholeObservationFilter(query);
      const row = await sql.one<{ n: number }>(`SELECT count(*) AS n FROM observations ${where}`, params);
      return Number(row?.n ?? 0);
    },

    async assign({ observationIds, modelId }) {
      await sql.run('UPDATE observations SET model_id = @modelId WHERE id = ANY(@ids::text[])', {
        modelId,
        ids: observationIds,
      });
    },

    async putModel(m) {
      const existing = await modelByName(m.name);
      const id = existing?.id ?? m.id;
      await sql.run(
        `INSERT INTO mental_models (id, name, content, version, updated_at, meta)
         VALUES (@id, @name, @content, 1, @updatedAt, @meta)
         ON CONFLICT (id) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at,
           meta = excluded.meta, version = mental_models.version + 1
         WHERE mental_models.content IS DISTINCT FROM excluded.content
            OR mental_models.meta IS DISTINCT FROM excluded.meta`,
        { id, name: m.name, content: m.description, updatedAt: m.updatedAt, meta: toJson({ base: m.isBase }) },
      );
      return (await modelByName(m.name)) ?? { ...m, id };
    },

    model: (name) => modelByName(name),

    async models() {
      const rows = await sql.all<ModelRow>(
        'SELECT id, name, content, updated_at, meta FROM mental_models ORDER BY name',
      );
      return rows.map(toModel);
    },

    async putSummary(x) {
      await sql.run(
        `INSERT INTO summaries (id, model_id, tier, start_at, end_at, text, source_ids, created_at, meta)
         VALUES (@id, @modelId, @tier, @start, @end, @text, @sourceIds, @createdAt, @meta)
         ON CONFLICT (model_id, tier, start_at) DO UPDATE SET end_at = excluded.end_at, text = excluded.text,
           source_ids = excluded.source_ids, created_at = excluded.created_at, meta = excluded.meta`,
        {
          id: x.id,
          modelId: x.modelId,
          tier: x.tier,
          start: x.start,
          end: x.end,
          text: x.text,
          sourceIds: toJson(x.sourceIds),
          createdAt: x.createdAt,
          meta: toJson({ method: x.method, sourceHash: x.sourceHash }),
        },
      );
    },

    async summaries(query) {
      const clauses: string[] = [];
      const params: Params = { limit: limitParam(query?.limit) };
      if (query?.modelId !== undefined) {
        clauses.push('model_id = @modelId');
        params.modelId = query.modelId;
      }
      if (query?.tier !== undefined) {
        clauses.push('tier = @tier');
        params.tier = query.tier;
      }
      const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
      const order = query?.order === 'desc' ? 'DESC' : 'ASC';
      const rows = await sql.all<SummaryRow>(
        `SELECT ${SUMMARY} FROM summaries ${where} ORDER BY tier, start_at ${order}, model_id LIMIT @limit`,
        params,
      );
      return rows.map(toSummary);
    },

    async recentByTier({ modelId, perTier }) {
      const rows = await sql.all<SummaryRow>(
        `SELECT ${SUMMARY} FROM (
           SELECT *, row_number() OVER (PARTITION BY tier ORDER BY start_at DESC) AS n
             FROM summaries WHERE model_id = @modelId) ranked
         WHERE n <= @perTier ORDER BY tier, start_at DESC`,
        { modelId, perTier },
      );
      return rows.map(toSummary);
    },
  };
}
