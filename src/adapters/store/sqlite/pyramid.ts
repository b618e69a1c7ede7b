import { PieError } from '../../../domain/errors.js';
import type {
  MentalModel,
  Observation,
  ObservationQuery,
  PyramidStore,
  Summary,
} from '../../../ports/pyramid-store.js';
import type { SyncOf } from './bind.js';
import { fromJson, idsParam, IDS_IN, limitParam, toJson, type Params, type Statements, type Filter } from './sql.js';

export interface ObservationRow {
  id: string;
  text: string;
  importance: number;
  model_id: string | null;
  entity_id: string | null;
  episode_id: string | null;
  event_time: number;
  recorded_at: number;
  meta: string;
}

export interface ModelRow {
  id: string;
  name: string;
  content: string;
  updated_at: number;
  meta: string;
}

export interface SummaryRow {
  id: string;
  model_id: string;
  tier: number;
  start_at: number;
  end_at: number;
  text: string;
  source_ids: string;
  created_at: number;
  meta: string;
}

export const toObservation = (r: ObservationRow): Observation => ({
  id: r.id,
  text: r.text,
  importance: r.importance,
  modelId: r.model_id,
  entityId: r.entity_id,
  episodeId: r.episode_id,
  eventTime: r.event_time,
  recordedAt: r.recorded_at,
  source: fromJson<{ source?: string }>(r.meta, {}).source ?? 'manual',
});

export const toModel = (r: ModelRow): MentalModel => ({
  id: r.id,
  name: r.name,
  description: r.content,
  isBase: fromJson<{ base?: boolean }>(r.meta, {}).base === true,
  updatedAt: r.updated_at,
});

export const toSummary = (r: SummaryRow): Summary => {
  const meta = fromJson<{ method?: string; sourceHash?: string }>(r.meta, {});
  return {
    id: r.id,
    modelId: r.model_id,
    tier: r.tier,
    start: r.start_at,
    end: r.end_at,
    text: r.text,
    sourceIds: fromJson<string[]>(r.source_ids, []),
    createdAt: r.created_at,
    method: meta.method ?? 'deterministic',
    sourceHash: meta.sourceHash ?? '',
  };
};

/** The WHERE clause and named parameters of an observation query (the same SQL on both adapters). */
export function observationFilter(query: ObservationQuery | undefined): Filter {
  const clauses: string[] = [];
  const params: Filter['params'] = {};
  if (query?.modelId !== undefined) {
    clauses.push('model_id = @modelId');
    params.modelId = query.modelId;
  }
  if (query?.unassigned === true) clauses.push('model_id IS NULL');
  if (query?.since !== undefined) {
    clauses.push('event_time >= @since');
    params.since = query.since;
  }
  if (query?.until !== undefined) {
    clauses.push('event_time < @until');
    params.until = query.until;
  }
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export function createPyramidStore(s: Statements): SyncOf<PyramidStore> {
  const modelByName = (name: string): MentalModel | null => {
    const row = s.get('SELECT * FROM mental_models WHERE name = ?').get(name) as ModelRow | undefined;
    return row ? toModel(row) : null;
  };

  return {
    addObservation(o) {
      if (!Number.isFinite(o.importance)) {
        throw new PieError('INVALID_ARGUMENT', `importance must be a number, got ${String(o.importance)}.`);
      }
      const info = s
        .get(
          `INSERT INTO observations (id, text, importance, entity_id, episode_id, event_time, recorded_at, meta, model_id)
           VALUES (@id, @text, @importance, @entityId, @episodeId, @eventTime, @recordedAt, @meta, @modelId)
           ON CONFLICT (id) DO NOTHING`,
        )
        .run({
          id: o.id,
          text: o.text,
          importance: o.importance,
          entityId: o.entityId,
          episodeId: o.episodeId,
          eventTime: o.eventTime,
          recordedAt: o.recordedAt,
          meta: toJson({ source: o.source }),
          modelId: o.modelId,
        });
      return info.changes > 0;
    },

    observations(query) {
      const { where, params } = observationFilter(query);
      const order = query?.order === 'desc' ? 'DESC' : 'ASC';
      const rows = s
        .get(`SELECT * FROM observations ${where} ORDER BY event_time ${order}, id ${order} LIMIT @limit`)
        .all({ ...params, limit: limitParam(query?.limit) ?? -1 }) as ObservationRow[];
      return rows.map(toObservation);
    },

    countObservations(query) {
      const { where, params } = observationFilter(query);
      return Number(s.pluck(`SELECT count(*) FROM observations ${where}`).get(params));
    },

    assign({ observationIds, modelId }) {
      s.get(`UPDATE observations SET model_id = @modelId WHERE id ${IDS_IN}`).run({
        modelId,
        ids: idsParam(observationIds),
      });
    },

    putModel(m) {
      const existing = modelByName(m.name);
      const id = existing?.id ?? m.id;
      s.get(
        `INSERT INTO mental_models (id, name, content, version, updated_at, meta)
         VALUES (@id, @name, @content, 1, @updatedAt, @meta)
         ON CONFLICT (id) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at,
           meta = excluded.meta, version = version + 1
         WHERE content IS NOT excluded.content OR meta IS NOT excluded.meta`,
      ).run({ id, name: m.name, content: m.description, updatedAt: m.updatedAt, meta: toJson({ base: m.isBase }) });
      return modelByName(m.name) ?? { ...m, id };
    },

    model(name) {
      return modelByName(name);
    },

    models() {
      const rows = s.get('SELECT * FROM mental_models ORDER BY name').all() as ModelRow[];
      return rows.map(toModel);
    },

    putSummary(x) {
      s.get(
        `INSERT INTO summaries (id, model_id, tier, start_at, end_at, text, source_ids, created_at, meta)
         VALUES (@id, @modelId, @tier, @start, @end, @text, @sourceIds, @createdAt, @meta)
         ON CONFLICT (model_id, tier, start_at) DO UPDATE SET end_at = excluded.end_at, text = excluded.text,
           source_ids = excluded.source_ids, created_at = excluded.created_at, meta = excluded.meta`,
      ).run({
        id: x.id,
        modelId: x.modelId,
        tier: x.tier,
        start: x.start,
        end: x.end,
        text: x.text,
        sourceIds: toJson(x.sourceIds),
        createdAt: x.createdAt,
        meta: toJson({ method: x.method, sourceHash: x.sourceHash }),
      });
    },

    summaries(query) {
      const clauses: string[] = [];
      const params: Params = { limit: limitParam(query?.limit) ?? -1 };
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
      const rows = s
        .get(`SELECT * FROM summaries ${where} ORDER BY tier, start_at ${order}, model_id LIMIT @limit`)
        .all(params) as SummaryRow[];
      return rows.map(toSummary);
    },

    recentByTier({ modelId, perTier }) {
      const rows = s
        .get(
          `SELECT * FROM (
             SELECT *, row_number() OVER (PARTITION BY tier ORDER BY start_at DESC) AS n
               FROM summaries WHERE model_id = @modelId)
           WHERE n <= @perTier ORDER BY tier, start_at DESC`,
        )
        .all({ modelId, perTier }) as SummaryRow[];
      return rows.map(toSummary);
    },
  };
}
