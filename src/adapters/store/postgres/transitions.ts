import type { TransitionKind } from '../../../domain/world.js';
import { PieError } from '../../../domain/errors.js';
import type { EntityTransitionCount, TransitionListQuery, TransitionRepo } from '../../../ports/world-store.js';
import { notMaintenance } from '../sqlite/maintenance-store.js';
import {
  CHRONOLOGICAL,
  ORDER,
  SELECT,
  SELECT_STEPS,
  transitionFromRow,
  stepsFromRows,
  type TransitionRow,
  type TransitionStepRow,
} from '../sqlite/transitions.js';
import { inIdOrder, limitParam, notFound, toJson, wholeTime, type Params, type Sql } from './sql.js';

/**
 * WHERE clause and parameters of a list or count query. `perEntity`: several entities are matched against
 * `w.wanted`, one entity of a lateral join at a time (see `list`), instead of `= ANY`.
 */
function listFilter(
  query: TransitionListQuery | undefined,
  options: { perEntity: boolean } = { perEntity: false },
): { where: string; params: Params } {
  const clauses: string[] = [];
  const params: Params = {};
  if (query?.since !== undefined) {
    clauses.push('event_time >= @since');
    params.since = wholeTime(query.since, 'ceil');
  }
  if (query?.until !== undefined) {
    clauses.push('event_time < @until');
    params.until = wholeTime(query.until, 'ceil');
  }
  if (query?.kind !== undefined) {
    clauses.push('kind = @kind');
    params.kind = query.kind;
  }
  if (query?.unresolved === true) clauses.push("kind = 'contradiction' AND resolved_by IS NULL");
  if (query?.entityIds?.length === 1) {
    // One entity (an entity block's reads): plain equality, so its (entity_id, event_time) index gives the order
    // and LIMIT stops early; with = ANY the planner walked every transition by time, filtering (12 ms for a hub).
    clauses.push('entity_id = @entityId');
    params.entityId = query.entityIds[0] as string;
  } else if (query?.entityIds !== undefined) {
    clauses.push(options.perEntity ? 'entity_id = w.wanted' : 'entity_id = ANY(@ids::text[])');
    params.ids = query.entityIds;
  }
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

const FOREVER = { since: Number.MIN_SAFE_INTEGER, until: Number.MAX_SAFE_INTEGER };

export function createTransitionRepo(sql: Sql): TransitionRepo {
  return {
    async insert(t) {
      await sql.run(
        `INSERT INTO transitions (id, entity_id, kind, from_state, to_state, summary, event_time, recorded_at,
           confidence, episode_id, batch_id, resolved_by)
         VALUES (@id, @entityId, @kind, @fromState, @toState, @summary, @eventTime, @recordedAt, @confidence,
           @episodeId, @batchId, @resolvedBy)`,
        {
          id: t.id,
          entityId: t.entityId,
          kind: t.kind,
          fromState: t.fromState === null ? null : toJson(t.fromState),
          toState: toJson(t.toState),
          summary: t.summary,
          eventTime: t.eventTime,
          recordedAt: t.recordedAt,
          confidence: t.confidence,
          episodeId: t.episodeId,
          batchId: t.batchId,
          resolvedBy: t.resolvedBy,
        },
      );
    },

    async forEntity(entityId) {
      const rows = await sql.all<TransitionRow>(`${SELECT} WHERE entity_id = @entityId ${CHRONOLOGICAL}`, {
        entityId,
      });
      return rows.map(transitionFromRow);
    },

    async list(query) {
      const order = ORDER[query?.order ?? 'asc'] as string | undefined;
      if (order === undefined) {
        throw new PieError('INVALID_ARGUMENT', `Unknown transition order "${String(query?.order)}".`);
      }
      // Several entities: each one's first rows in order through its own (entity_id, event_time) index, then the
      // first of those; the same rows as `= ANY`, for which the planner walked every transition of the time range
      // in order, filtering (100 ms for two entities over two years).
      const perEntity = (query?.entityIds?.length ?? 0) > 1;
      const { where, params } = listFilter(query, { perEntity });
      const text = perEntity
        ? `SELECT t.* FROM (SELECT DISTINCT unnest(@ids::text[]) AS wanted) w
           CROSS JOIN LATERAL (${SELECT} ${where} ${order} LIMIT @limit) t ${order} LIMIT @limit`
        : `${SELECT} ${where} ${order} LIMIT @limit`;
      const rows = await sql.all<TransitionRow>(text, { ...params, limit: limitParam(query?.limit) });
      return rows.map(transitionFromRow);
    },

    async forEntitiesSince(wanted) {
      // Each wanted entity (in the order given) through its (entity_id, event_time) index from its own start.
      const rows = await sql.all<TransitionRow>(
        `SELECT t.* FROM unnest(@ids::text[], @since::bigint[]) WITH ORDINALITY AS w(wanted, since, n)
         CROSS JOIN LATERAL (${SELECT} WHERE entity_id = w.wanted AND event_time >= w.since ${CHRONOLOGICAL}) t
         ORDER BY w.n, t.event_time, t.recorded_at, t.id`,
        { ids: wanted.map((w) => w.entityId), since: wanted.map((w) => wholeTime(w.since, 'ceil')) },
      );
      return rows.map(transitionFromRow);
    },

    async listSteps() {
      return stepsFromRows(await sql.all<TransitionStepRow>(SELECT_STEPS));
    },

    async count(query) {
      const { where, params } = listFilter(query);
      const row = await sql.one<{ n: number }>(`SELECT count(*) AS n FROM transitions ${where}`, params);
      return Number(row?.n ?? 0);
    },

    async countByKind({ entityId, since, until }) {
      const rows = await sql.all<{ kind: TransitionKind; n: number }>(
        `SELECT kind, count(*) AS n FROM transitions
         WHERE entity_id = @entityId AND event_time >= @since AND event_time < @until GROUP BY kind`,
        {
          entityId,
          since: wholeTime(since ?? FOREVER.since, 'ceil'),
          until: wholeTime(until ?? FOREVER.until, 'ceil'),
        },
      );
      return Object.fromEntries(rows.map((r) => [r.kind, Number(r.n)]));
    },

    async countByEntity({ since, until }) {
      const rows = await sql.all<EntityTransitionCount>(
        `SELECT entity_id AS "entityId", count(*) AS total, count(*) FILTER (WHERE kind <> 'creation') AS changes
         FROM transitions WHERE event_time >= @since AND event_time < @until AND ${notMaintenance('kind')}
         GROUP BY entity_id ORDER BY entity_id`,
        { since: wholeTime(since ?? FOREVER.since, 'ceil'), until: wholeTime(until ?? FOREVER.until, 'ceil') },
      );
      return rows.map((r) => ({ entityId: r.entityId, total: Number(r.total), changes: Number(r.changes) }));
    },

    async getMany(ids) {
      const rows = await sql.all<TransitionRow>(`${SELECT} WHERE id = ANY(@ids::text[])`, { ids });
      return inIdOrder(ids, rows.map(transitionFromRow), (t) => t.id);
    },

    async latest({ until, limit }) {
      const where = until === undefined ? '' : 'WHERE event_time < @until';
      const rows = await sql.all<TransitionRow>(
        `${SELECT} ${where} ORDER BY event_time DESC, recorded_at DESC, id DESC LIMIT @limit`,
        until === undefined
          ? { limit: limitParam(limit) }
          : { limit: limitParam(limit), until: wholeTime(until, 'ceil') },
      );
      return rows.map(transitionFromRow);
    },

    async markResolved({ id, resolvedBy }) {
      const n = await sql.run('UPDATE transitions SET resolved_by = @resolvedBy WHERE id = @id', { id, resolvedBy });
      if (n === 0) throw notFound('transition', id);
    },

    async retime({ id, eventTime, episodeId, summary }) {
      const n = await sql.run(
        `UPDATE transitions SET event_time = @eventTime, episode_id = @episodeId, summary = @summary WHERE id = @id`,
        { id, eventTime, episodeId, summary },
      );
      if (n === 0) throw notFound('transition', id);
    },
  };
}
