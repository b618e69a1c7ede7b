import { PieError } from '../../../domain/errors.js';
import type { Entity } from '../../../domain/world.js';
import type { EntityPatch, EntityRepo } from '../../../ports/world-store.js';
import { basicKey, entityFromRow, type EntityRow } from '../sqlite/entities.js';
import { PAGE, inIdOrder, notFound, pageParams, toJson, wholeTimes, type Params, type Sql } from './sql.js';
import {
  entityBriefFromRow,
  listFilter,
  listOrder,
  SELECT_BRIEF,
  WITHOUT_EDGE,
  type EntityBriefRow,
} from '../sqlite/entities.js';

const SELECT = `SELECT e.id, e.type, e.name, e.state, e.first_seen, e.last_seen, e.importance, e.tier, e.access_count,
    e.created_from, e.recorded_at, e.updated_at, e.version, e.protected, e.meta,
    (SELECT coalesce(json_agg(a.alias ORDER BY a.recorded_at, a.alias), '[]')::text
       FROM entity_aliases a WHERE a.entity_id = e.id) AS aliases
  FROM entities e`;

const INSERT = `INSERT INTO entities (id, type, name, name_norm, state, first_seen, last_seen, importance, tier,
    access_count, created_from, recorded_at, updated_at, version, protected, meta)
  VALUES (@id, @type, @name, @nameNorm, @state, @firstSeen, @lastSeen, @importance, 'active', 0, @createdFrom,
    @recordedAt, @recordedAt, 1, @protected, @meta)`;

/** One statement for every patch shape: a field changes only when its `set…` flag is true. */
const UPDATE = `UPDATE entities SET
    type = CASE WHEN @setType::boolean THEN @type::text ELSE type END,
    name = CASE WHEN @setName::boolean THEN @name::text ELSE name END,
    name_norm = CASE WHEN @setName::boolean THEN @nameNorm::text ELSE name_norm END,
    state = CASE WHEN @setState::boolean THEN @state::text ELSE state END,
    first_seen = CASE WHEN @setFirstSeen::boolean THEN @firstSeen::bigint ELSE first_seen END,
    last_seen = CASE WHEN @setLastSeen::boolean THEN @lastSeen::bigint ELSE last_seen END,
    importance = CASE WHEN @setImportance::boolean THEN @importance::double precision ELSE importance END,
    tier = CASE WHEN @setTier::boolean THEN @tier::text ELSE tier END,
    access_count = CASE WHEN @setAccessCount::boolean THEN @accessCount::integer ELSE access_count END,
    protected = CASE WHEN @setProtected::boolean THEN @protected::integer ELSE protected END,
    meta = CASE WHEN @setMeta::boolean THEN @meta::text ELSE meta END,
    updated_at = @updatedAt,
    version = version + 1
  WHERE id = @id AND (@expectedVersion::integer IS NULL OR version = @expectedVersion::integer)`;

function patchParams(id: string, patch: EntityPatch): Params {
  return {
    id,
    expectedVersion: patch.expectedVersion ?? null,
    updatedAt: patch.updatedAt,
    setType: patch.type !== undefined,
    type: patch.type ?? null,
    setName: patch.name !== undefined,
    name: patch.name ?? null,
    nameNorm: patch.normalizedName ?? (patch.name === undefined ? null : basicKey(patch.name)),
    setState: patch.state !== undefined,
    state: patch.state === undefined ? null : toJson(patch.state),
    setFirstSeen: patch.firstSeen !== undefined,
    firstSeen: patch.firstSeen ?? null,
    setLastSeen: patch.lastSeen !== undefined,
    lastSeen: patch.lastSeen ?? null,
    setImportance: patch.importance !== undefined,
    importance: patch.importance ?? null,
    setTier: patch.tier !== undefined,
    tier: patch.tier ?? null,
    setAccessCount: patch.accessCount !== undefined,
    accessCount: patch.accessCount ?? null,
    setProtected: patch.protected !== undefined,
    protected: patch.protected === undefined ? null : patch.protected ? 1 : 0,
    setMeta: patch.meta !== undefined,
    meta: patch.meta === undefined ? null : toJson(patch.meta),
  };
}

/** The SQLite store's filter, with its time bound (`first_seen <= @firstSeenAtOrBefore`) a whole number. */
function entityFilter(query: Parameters<typeof listFilter>[0]): { where: string; params: Params } {
  const { where, params } = listFilter(query);
  return { where, params: wholeTimes(params, { firstSeenAtOrBefore: 'floor' }) };
}

export function createEntityRepo(sql: Sql): EntityRepo {
  const getOn = async (q: Sql, id: string): Promise<Entity | null> => {
    const row = await q.one<EntityRow>(`${SELECT} WHERE e.id = @id`, { id });
    return row ? entityFromRow(row) : null;
  };
  const mustGet = async (q: Sql, id: string): Promise<Entity> => {
    const entity = await getOn(q, id);
    if (!entity) throw notFound('entity', id);
    return entity;
  };

  return {
    async insert(input) {
      await sql.run(INSERT, {
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
        protected: input.protected === true ? 1 : 0,
        meta: toJson(input.meta ?? {}),
      });
      return mustGet(sql, input.id);
    },

    update(id, patch) {
      const params = patchParams(id, patch);
      return sql.atomic(async (tx) => {
        if ((await tx.run(UPDATE, params)) === 0) {
          const current = await mustGet(tx, id);
          throw new PieError(
            'CONFLICT',
            `Entity "${current.name}" changed meanwhile (version ${current.version}, expected ${String(patch.expectedVersion)}); reload it and retry.`,
            { details: { id, version: current.version, expectedVersion: patch.expectedVersion } },
          );
        }
        return mustGet(tx, id);
      });
    },

    get: (id) => getOn(sql, id),

    async getMany(ids) {
      const rows = await sql.all<EntityRow>(`${SELECT} WHERE e.id = ANY(@ids::text[])`, { ids });
      return inIdOrder(ids, rows.map(entityFromRow), (entity) => entity.id);
    },

    async findByKey(normalized) {
      const rows = await sql.all<EntityRow>(
        `${SELECT} WHERE e.merged_into IS NULL
           AND (e.name_norm = @key OR e.id IN (SELECT entity_id FROM entity_aliases WHERE normalized = @key))
         ORDER BY e.importance DESC, e.id`,
        { key: normalized },
      );
      return rows.map(entityFromRow);
    },

    async list(query) {
      const { where, params } = entityFilter(query);
      const rows = await sql.all<EntityRow>(`${SELECT} ${where} ORDER BY ${listOrder(query)} ${PAGE}`, {
        ...params,
        ...pageParams(query),
      });
      return rows.map(entityFromRow);
    },

    async listBriefs(query) {
      const { where, params } = entityFilter(query);
      const rows = await sql.all<EntityBriefRow>(`${SELECT_BRIEF} ${where} ORDER BY ${listOrder(query)} ${PAGE}`, {
        ...params,
        ...pageParams(query),
      });
      return rows.map(entityBriefFromRow);
    },

    async withoutEdge(query) {
      return (await sql.all<EntityBriefRow>(WITHOUT_EDGE, query)).map(entityBriefFromRow);
    },

    async count(query) {
      const { where, params } = entityFilter(query);
      const row = await sql.one<{ n: number }>(`SELECT count(*) AS n FROM entities e ${where}`, params);
      return Number(row?.n ?? 0);
    },

    async types() {
      const rows = await sql.all<{ type: string }>('SELECT DISTINCT type FROM entities ORDER BY type');
      return rows.map((r) => r.type);
    },

    async addAlias({ entityId, alias, normalized, recordedAt }) {
      await sql.run(
        `INSERT INTO entity_aliases (entity_id, alias, normalized, recorded_at)
         VALUES (@entityId, @alias, @normalized, @recordedAt)
         ON CONFLICT (entity_id, normalized) DO NOTHING`,
        { entityId, alias, normalized, recordedAt },
      );
    },

    async incrementAccess(ids) {
      if (ids.length === 0) return;
      // Each occurrence counts (an id named twice is incremented twice), as in the SQLite adapter. Another process's
      // transaction (a batch being applied, a sleep) may hold some of these rows and want others, so this never
      // waits for a row while holding one, which could deadlock with it: first one statement counts every row
      // nobody holds, skipping held rows instead of waiting; then each skipped row is counted alone, waiting for it
      // while holding nothing (outside a transaction, each statement commits by itself).
      const left = new Map<string, number>();
      for (const id of ids) left.set(id, (left.get(id) ?? 0) + 1);
      const counted = await sql.all<{ id: string }>(
        `WITH c AS (SELECT id, count(*)::integer AS n FROM unnest(@ids::text[]) AS id GROUP BY id),
              free AS (SELECT e.id FROM entities e JOIN c ON c.id = e.id FOR UPDATE OF e SKIP LOCKED)
         UPDATE entities e SET access_count = e.access_count + c.n FROM c
          WHERE e.id = c.id AND e.id IN (SELECT id FROM free)
         RETURNING e.id`,
        { ids },
      );
      for (const { id } of counted) left.delete(id);
      for (const [id, n] of [...left].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        await sql.run('UPDATE entities SET access_count = access_count + @n WHERE id = @id', { id, n });
      }
    },
  };
}
