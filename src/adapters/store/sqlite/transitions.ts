import type { EntityState, Transition, TransitionKind } from '../../../domain/world.js';
import { PieError } from '../../../domain/errors.js';
import type {
  EntityTransitionCount,
  TransitionListQuery,
  TransitionRepo,
  TransitionStep,
} from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { notMaintenance } from './maintenance-store.js';
import {
  IDS_IN,
  fromJson,
  idsParam,
  inIdOrder,
  limitParam,
  notFound,
  toJson,
  type Params,
  type Statements,
} from './sql.js';

export interface TransitionRow {
  id: string;
  entity_id: string;
  kind: TransitionKind;
  from_state: string | null;
  to_state: string;
  summary: string;
  event_time: number;
  recorded_at: number;
  confidence: number;
  episode_id: string | null;
  batch_id: string | null;
  resolved_by: string | null;
}

export const SELECT = `SELECT id, entity_id, kind, from_state, to_state, summary, event_time, recorded_at, confidence,
  episode_id, batch_id, resolved_by FROM transitions`;

/** Chronological by event time; ties by record time, then id, so the order is total and stable. */
export const CHRONOLOGICAL = 'ORDER BY event_time, recorded_at, id';

export const ORDER: Record<NonNullable<TransitionListQuery['order']>, string> = {
  asc: CHRONOLOGICAL,
  desc: 'ORDER BY event_time DESC, recorded_at DESC, id DESC',
};

/**
 * WHERE clause and parameters of a list query. `unresolved` is written out literally so that the planner can use
 * the partial index transitions_unresolved (a bound parameter would hide that the query implies its condition).
 */
function listFilter(query: TransitionListQuery | undefined): { where: string; params: Params } {
  const clauses: string[] = [];
  const params: Params = {};
  if (query?.since !== undefined) {
    clauses.push('event_time >= @since');
    params.since = query.since;
  }
  if (query?.until !== undefined) {
    clauses.push('event_time < @until');
    params.until = query.until;
  }
  if (query?.kind !== undefined) {
    clauses.push('kind = @kind');
    params.kind = query.kind;
  }
  if (query?.unresolved === true) clauses.push("kind = 'contradiction' AND resolved_by IS NULL");
  if (query?.entityIds !== undefined) {
    // One entity (the common case) as a plain equality, so the planner uses transitions_by_entity and its order
    // instead of a kind index or a sort of a hub's whole history.
    const [only] = query.entityIds;
    if (query.entityIds.length === 1 && only !== undefined) {
      clauses.push('entity_id = @entityId');
      params.entityId = only;
    } else {
      clauses.push(`entity_id ${IDS_IN}`);
      params.ids = idsParam(query.entityIds);
    }
  }
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export function transitionFromRow(row: TransitionRow): Transition {
  return {
    id: row.id,
    entityId: row.entity_id,
    kind: row.kind,
    fromState: fromJson<EntityState | null>(row.from_state, null),
    toState: fromJson<EntityState>(row.to_state, {}),
    summary: row.summary,
    eventTime: row.event_time,
    recordedAt: row.recorded_at,
    confidence: row.confidence,
    episodeId: row.episode_id,
    batchId: row.batch_id,
    resolvedBy: row.resolved_by,
  };
}

/** What transitions.listSteps reads, in list()'s order. */
export const SELECT_STEPS = `SELECT entity_id, kind, from_state, to_state, event_time, episode_id FROM transitions
  ${CHRONOLOGICAL}`;

export type TransitionStepRow = Pick<
  TransitionRow,
  'entity_id' | 'kind' | 'from_state' | 'to_state' | 'event_time' | 'episode_id'
>;

/**
 * listSteps' rows as steps. A memory's states repeat (a few thousand distinct ones among 200,000 transitions): each
 * distinct JSON text is parsed once per call and its frozen object shared by the steps that hold it, instead of
 * 400,000 objects made and collected.
 */
export function stepsFromRows(rows: readonly TransitionStepRow[]): TransitionStep[] {
  const parsed = new Map<string, EntityState>();
  const state = (text: string): EntityState => {
    let value = parsed.get(text);
    if (value === undefined) {
      value = Object.freeze(fromJson<EntityState>(text, {}));
      parsed.set(text, value);
    }
    return value;
  };
  return rows.map((row) => ({
    entityId: row.entity_id,
    kind: row.kind,
    fromState: row.from_state === null ? null : state(row.from_state),
    toState: state(row.to_state),
    eventTime: row.event_time,
    episodeId: row.episode_id,
  }));
}

export function createTransitionRepo(s: Statements): SyncOf<TransitionRepo> {
  return {
    insert(t) {
      s.get(
        `INSERT INTO transitions (id, entity_id, kind, from_state, to_state, summary, event_time, recorded_at,
           confidence, episode_id, batch_id, resolved_by)
         VALUES (@id, @entityId, @kind, @fromState, @toState, @summary, @eventTime, @recordedAt, @confidence,
           @episodeId, @batchId, @resolvedBy)`,
      ).run({
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
      });
    },

    forEntity(entityId) {
      const rows = s.get(`${SELECT} WHERE entity_id = ? ${CHRONOLOGICAL}`).all(entityId) as TransitionRow[];
      return rows.map(transitionFromRow);
    },

    list(query) {
      const { where, params } = listFilter(query);
      const order = ORDER[query?.order ?? 'asc'] as string | undefined;
      if (order === undefined) {
        throw new PieError('INVALID_ARGUMENT', `Unknown transition order "${String(query?.order)}".`);
      }
      const rows = s
        .get(`${SELECT} ${where} ${order} LIMIT @limit`)
        .all({ ...params, limit: limitParam(query?.limit) ?? -1 }) as TransitionRow[];
      return rows.map(transitionFromRow);
    },

    forEntitiesSince(wanted) {
      // Each wanted entity (in the order given) through its (entity_id, event_time) index from its own start.
      const rows = s
        .get(
          `SELECT t.id, t.entity_id, t.kind, t.from_state, t.to_state, t.summary, t.event_time, t.recorded_at,
             t.confidence, t.episode_id, t.batch_id, t.resolved_by
           FROM json_each(@wanted) w
           JOIN transitions t ON t.entity_id = json_extract(w.value, '$[0]')
             AND t.event_time >= json_extract(w.value, '$[1]')
           ORDER BY w.key, t.event_time, t.recorded_at, t.id`,
        )
        .all({ wanted: JSON.stringify(wanted.map((w) => [w.entityId, w.since])) }) as TransitionRow[];
      return rows.map(transitionFromRow);
    },

    listSteps() {
      return stepsFromRows(s.get(SELECT_STEPS).all() as TransitionStepRow[]);
    },

    count(query) {
      const { where, params } = listFilter(query);
      return Number(s.pluck(`SELECT count(*) FROM transitions ${where}`).get(params));
    },

    countByKind({ entityId, since, until }) {
      // INDEXED BY the covering (entity, kind, time) index: without it the planner picks (entity, time) for the
      // range and then reads every row of the entity's history for its kind (~10 ms for a hub of 3,000 changes,
      // 0.3 ms from the index alone), and sorts for the GROUP BY that the index order gives for free.
      const rows = s
        .get(
          `SELECT kind, count(*) AS n FROM transitions INDEXED BY transitions_by_entity_kind
           WHERE entity_id = @entityId AND event_time >= @since AND event_time < @until GROUP BY kind`,
        )
        .all({ entityId, since: since ?? Number.MIN_SAFE_INTEGER, until: until ?? Number.MAX_SAFE_INTEGER }) as {
        kind: TransitionKind;
        n: number;
      }[];
      return Object.fromEntries(rows.map((r) => [r.kind, r.n]));
    },

    countByEntity({ since, until }) {
      // The covering (entity, kind, time) index again: counting a few years of history reads no table row (45 ms
      // for 200k transitions; through the time index and the table, 250 ms).
      return s
        .get(
          `SELECT entity_id AS entityId, count(*) AS total, sum(kind <> 'creation') AS changes
           FROM transitions INDEXED BY transitions_by_entity_kind
           WHERE event_time >= @since AND event_time < @until AND ${notMaintenance('kind')}
           GROUP BY entity_id ORDER BY entity_id`,
        )
        .all({
          since: since ?? Number.MIN_SAFE_INTEGER,
          until: until ?? Number.MAX_SAFE_INTEGER,
        }) as EntityTransitionCount[];
    },

    getMany(ids) {
      const rows = s.get(`${SELECT} WHERE id ${IDS_IN}`).all({ ids: idsParam(ids) }) as TransitionRow[];
      return inIdOrder(ids, rows.map(transitionFromRow), (t) => t.id);
    },

    latest({ until, limit }) {
      const params = { limit: limitParam(limit) ?? -1, until: until ?? null };
      const where = until === undefined ? '' : 'WHERE event_time < @until';
      const rows = s
        .get(`${SELECT} ${where} ORDER BY event_time DESC, recorded_at DESC, id DESC LIMIT @limit`)
        .all(params) as TransitionRow[];
      return rows.map(transitionFromRow);
    },

    markResolved({ id, resolvedBy }) {
      const result = s.get('UPDATE transitions SET resolved_by = ? WHERE id = ?').run(resolvedBy, id);
      if (result.changes === 0) throw notFound('transition', id);
    },

    retime({ id, eventTime, episodeId, summary }) {
      const result = s
        .get('UPDATE transitions SET event_time = ?, episode_id = ?, summary = ? WHERE id = ?')
        .run(eventTime, episodeId, summary, id);
      if (result.changes === 0) throw notFound('transition', id);
    },
  };
}
