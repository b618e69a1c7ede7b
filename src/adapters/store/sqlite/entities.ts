import { PieError } from '../../../domain/errors.js';
import type { Entity, EntityState, Tier } from '../../../domain/world.js';
import type { EntityBrief, EntityListQuery, EntityPatch, EntityRepo } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import {
  IDS_IN,
  PAGE,
  bool,
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

export interface EntityRow {
  id: string;
  type: string;
  name: string;
  aliases: string;
  state: string;
  first_seen: number;
  last_seen: number;
  importance: number;
  tier: Tier;
  access_count: number;
  created_from: string | null;
  recorded_at: number;
  updated_at: number;
  version: number;
  protected: number;
  meta: string;
}

const SELECT = `SELECT e.id, e.type, e.name, e.state, e.first_seen, e.last_seen, e.importance, e.tier, e.access_count,
    e.created_from, e.recorded_at, e.updated_at, e.version, e.protected, e.meta,
    (SELECT json_group_array(alias) FROM
      (SELECT a.alias FROM entity_aliases a WHERE a.entity_id = e.id ORDER BY a.recorded_at, a.alias)) AS aliases
  FROM entities e`;

const INSERT = `INSERT INTO entities (id, type, name, name_norm, state, first_seen, last_seen, importance, tier,
    access_count, created_from, recorded_at, updated_at, version, protected, meta)
  VALUES (@id, @type, @name, @nameNorm, @state, @firstSeen, @lastSeen, @importance, 'active', 0, @createdFrom,
    @recordedAt, @recordedAt, 1, @protected, @meta)`;

/** One statement for every patch shape: a field changes only when its `set…` flag is 1. */
const UPDATE = `UPDATE entities SET
    type = CASE WHEN @setType THEN @type ELSE type END,
    name = CASE WHEN @setName THEN @name ELSE name END,
    name_norm = CASE WHEN @setName THEN @nameNorm ELSE name_norm END,
    state = CASE WHEN @setState THEN @state ELSE state END,
    first_seen = CASE WHEN @setFirstSeen THEN @firstSeen ELSE first_seen END,
    last_seen = CASE WHEN @setLastSeen THEN @lastSeen ELSE last_seen END,
    importance = CASE WHEN @setImportance THEN @importance ELSE importance END,
    tier = CASE WHEN @setTier THEN @tier ELSE tier END,
    access_count = CASE WHEN @setAccessCount THEN @accessCount ELSE access_count END,
    protected = CASE WHEN @setProtected THEN @protected ELSE protected END,
    meta = CASE WHEN @setMeta THEN @meta ELSE meta END,
    updated_at = @updatedAt,
    version = version + 1
  WHERE id = @id AND (@expectedVersion IS NULL OR version = @expectedVersion)`;

export const ORDER: Record<NonNullable<EntityListQuery['orderBy']>, string> = {
  importance: 'e.importance DESC, e.last_seen DESC, e.id',
  lastSeen: 'e.last_seen DESC, e.id',
  name: 'e.name_norm, e.id',
};

/** What listBriefs reads: no state, aliases or bookkeeping to parse. */
export const SELECT_BRIEF = `SELECT e.id, e.type, e.name, e.importance, e.tier, e.first_seen, e.last_seen, e.updated_at
  FROM entities e`;

/** Entities first seen in [since, until] with no edge of a type from them (shared with PostgreSQL). */
export const WITHOUT_EDGE = `${SELECT_BRIEF}
  WHERE e.merged_into IS NULL AND e.first_seen >= @since
    AND (CAST(@until AS bigint) IS NULL OR e.first_seen <= CAST(@until AS bigint))
    AND NOT EXISTS (SELECT 1 FROM relationships r WHERE r.source_id = e.id AND r.type = @edgeType)
  ORDER BY e.first_seen, e.id`;

export type EntityBriefRow = Pick<
  EntityRow,
  'id' | 'type' | 'name' | 'importance' | 'tier' | 'first_seen' | 'last_seen' | 'updated_at'
>;

export function entityBriefFromRow(row: EntityBriefRow): EntityBrief {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    importance: row.importance,
    tier: row.tier,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    updatedAt: row.updated_at,
  };
}

/** The ORDER BY of a list query; an unknown order fails. */
export function listOrder(query: EntityListQuery | undefined): string {
  const order = ORDER[query?.orderBy ?? 'importance'] as string | undefined;
  if (order === undefined) {
    throw new PieError('INVALID_ARGUMENT', `Unknown entity order "${String(query?.orderBy)}".`);
  }
  return order;
}

export function entityFromRow(row: EntityRow): Entity {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    aliases: fromJson<string[]>(row.aliases, []),
    state: fromJson<EntityState>(row.state, {}),
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    importance: row.importance,
    tier: row.tier,
    accessCount: row.access_count,
    createdFrom: row.created_from,
    recordedAt: row.recorded_at,
    updatedAt: row.updated_at,
    version: row.version,
    protected: row.protected !== 0,
    meta: fromJson<Record<string, unknown>>(row.meta, {}),
  };
}

export type EntityFilter = Pick<
  EntityListQuery,
  'type' | 'tier' | 'firstSeenAtOrBefore' | 'excludeArchived' | 'excludeMerged'
>;

export function listFilter(query: EntityFilter | undefined): Filter {
  const clauses: string[] = [];
  const params: Filter['params'] = {};
  if (query?.type !== undefined) {
    clauses.push('e.type = @type');
    params.type = query.type;
  }
  if (query?.tier !== undefined) {
    clauses.push('e.tier = @tier');
    params.tier = query.tier;
  }
  if (query?.firstSeenAtOrBefore !== undefined) {
    clauses.push('e.first_seen <= @firstSeenAtOrBefore');
    params.firstSeenAtOrBefore = query.firstSeenAtOrBefore;
  }
  if (query?.excludeArchived === true) clauses.push("e.tier <> 'archived'");
  if (query?.excludeMerged === true) clauses.push('e.merged_into IS NULL');
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

function flag(value: unknown): number {
  return value === undefined ? 0 : 1;
}

/**
 * The lookup key stored when the caller gives none. Callers that resolve entities pass their own normalization
 * (the one they use for aliases); this basic one only keeps findByKey usable for them that do not.
 */
export function basicKey(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/gu, ' ').trim();
}

function patchParams(id: string, patch: EntityPatch): Params {
  return {
    id,
    expectedVersion: patch.expectedVersion ?? null,
    updatedAt: patch.updatedAt,
    setType: flag(patch.type),
    type: patch.type ?? null,
    setName: flag(patch.name),
    name: patch.name ?? null,
    nameNorm: patch.normalizedName ?? (patch.name === undefined ? null : basicKey(patch.name)),
    setState: flag(patch.state),
    state: patch.state === undefined ? null : toJson(patch.state),
    setFirstSeen: flag(patch.firstSeen),
    firstSeen: patch.firstSeen ?? null,
    setLastSeen: flag(patch.lastSeen),
    lastSeen: patch.lastSeen ?? null,
    setImportance: flag(patch.importance),
    importance: patch.importance ?? null,
    setTier: flag(patch.tier),
    tier: patch.tier ?? null,
    setAccessCount: flag(patch.accessCount),
    accessCount: patch.accessCount ?? null,
    setProtected: flag(patch.protected),
    protected: patch.protected === undefined ? null : bool(patch.protected),
    setMeta: flag(patch.meta),
    meta: patch.meta === undefined ? null : toJson(patch.meta),
  };
}

export function createEntityRepo(s: Statements): SyncOf<EntityRepo> {
  const get = (id: string): Entity | null => {
    const row = s.get(`${SELECT} WHERE e.id = ?`).get(id) as EntityRow | undefined;
    return row ? entityFromRow(row) : null;
  };
  const mustGet = (id: string): Entity => {
    const entity = get(id);
    if (!entity) throw notFound('entity', id);
    return entity;
  };

  return {
    insert(input) {
      s.get(INSERT).run({
        id: input.id,
        type: input.type,
        name: input.name,
        nameNorm: input.normalizedName ?? basicKey(input.name),
        state: toJson(input.state),
        firstSeen: input.firstSeen,
        lastSeen: input.lastSeen,
        importance: input.importance ?? 0.5,
        createdFrom: input.createdFrom,
        recordedAt: input.recordedAt,
        protected: bool(input.protected ?? false),
        meta: toJson(input.meta ?? {}),
      });
      return mustGet(input.id);
    },

    update(id, patch) {
      const params = patchParams(id, patch);
      return s.atomic(() => {
        if (s.get(UPDATE).run(params).changes === 0) {
          const current = mustGet(id);
          throw new PieError(
            'CONFLICT',
            `Entity "${current.name}" changed meanwhile (version ${current.version}, expected ${String(patch.expectedVersion)}); reload it and retry.`,
            { details: { id, version: current.version, expectedVersion: patch.expectedVersion } },
          );
        }
        return mustGet(id);
      });
    },

    get,

    getMany(ids) {
      const rows = s.get(`${SELECT} WHERE e.id ${IDS_IN}`).all({ ids: idsParam(ids) }) as EntityRow[];
      return inIdOrder(ids, rows.map(entityFromRow), (entity) => entity.id);
    },

    findByKey(normalized) {
      const rows = s
        .get(
          `${SELECT} WHERE e.merged_into IS NULL
             AND (e.name_norm = @key OR e.id IN (SELECT entity_id FROM entity_aliases WHERE normalized = @key))
           ORDER BY e.importance DESC, e.id`,
        )
        .all({ key: normalized }) as EntityRow[];
      return rows.map(entityFromRow);
    },

    list(query) {
      const { where, params } = listFilter(query);
      const rows = s
        .get(`${SELECT} ${where} ORDER BY ${listOrder(query)} ${PAGE}`)
        .all({ ...params, ...pageParams(query) }) as EntityRow[];
      return rows.map(entityFromRow);
    },

    listBriefs(query) {
      const { where, params } = listFilter(query);
      const rows = s
        .get(`${SELECT_BRIEF} ${where} ORDER BY ${listOrder(query)} ${PAGE}`)
        .all({ ...params, ...pageParams(query) }) as EntityBriefRow[];
      return rows.map(entityBriefFromRow);
    },

    count(query) {
      const { where, params } = listFilter(query);
      return Number(s.pluck(`SELECT count(*) FROM entities e ${where}`).get(params));
    },

    withoutEdge(query) {
      return (s.get(WITHOUT_EDGE).all(query) as EntityBriefRow[]).map(entityBriefFromRow);
    },

    types() {
      // Read from the (type, importance) index, which holds every type in order, not from the table.
      return s.pluck('SELECT DISTINCT type FROM entities ORDER BY type').all() as string[];
    },

    addAlias({ entityId, alias, normalized, recordedAt }) {
      s.get(
        `INSERT INTO entity_aliases (entity_id, alias, normalized, recorded_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (entity_id, normalized) DO NOTHING`,
      ).run(entityId, alias, normalized, recordedAt);
    },

    incrementAccess(ids) {
      s.atomic(() => {
        const statement = s.get('UPDATE entities SET access_count = access_count + 1 WHERE id = ?');
        for (const id of ids) statement.run(id);
      });
    },
  };
}
