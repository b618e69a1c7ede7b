import { PieError } from '../../../domain/errors.js';
import {
  ROW_ID_SEPARATOR,
  ROW_KEYS,
  type GraphEdge,
  type GraphNode,
  type MaintainedTable,
  type MaintenanceStore,
  type RawRow,
} from '../../../ports/maintenance-store.js';
import { portableColumns } from './columns.js';
import type { Params, Sql } from './sql.js';
import { checkTable, notMaintenance, type NodeRow } from '../sqlite/maintenance-store.js';

/** The key columns of `table` bound as @k0, @k1 … from the row id (a composite id splits on ROW_ID_SEPARATOR). */
function keyOf(table: MaintainedTable, id: string): { where: string; columns: readonly string[]; params: Params } {
  const columns = ROW_KEYS[table];
  const values = columns.length === 1 ? [id] : id.split(ROW_ID_SEPARATOR);
  if (values.length !== columns.length) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `A row id of ${table} joins ${columns.join(', ')} with U+001F; "${id}" has ${values.length} part(s).`,
    );
  }
  const params: Params = {};
  values.forEach((value, i) => (params[`k${i}`] = value));
  return { where: columns.map((c, i) => `${c} = @k${i}`).join(' AND '), columns, params };
}

/**
 * The maintenance store over PostgreSQL. Rows are read and written through the columns the SQLite store has too
 * (portableColumns): the internal order columns (`ord`) and derived search columns stay out of raw rows, so a
 * journal image means the same on both adapters. A re-inserted row gets a new `ord`, as a re-inserted SQLite row
 * gets a new rowid. Column names are checked against the table's own columns, so a journal row cannot inject SQL.
 */
export function createMaintenanceStore(sql: Sql): MaintenanceStore {
  const columns = new Map<MaintainedTable, readonly string[]>();
  const known = async (table: MaintainedTable): Promise<readonly string[]> => {
    let list = columns.get(table);
    if (!list) {
      list = await portableColumns(sql, table);
      columns.set(table, list);
    }
    return list;
  };

  return {
    async graphNodes() {
      const rows = await sql.all<NodeRow>(
        `SELECT e.id, e.type, e.last_seen, e.access_count, e.importance, e.tier, e.protected,
                (SELECT count(*) FROM transitions t
                  WHERE t.entity_id = e.id AND ${notMaintenance('t.kind')}) AS transitions
           FROM entities e WHERE e.merged_into IS NULL ORDER BY e.id`,
      );
      return rows.map((r): GraphNode => ({
        id: r.id,
        type: r.type,
        lastSeen: r.last_seen,
        accessCount: r.access_count,
        importance: r.importance,
        tier: r.tier,
        protected: r.protected === 1,
        transitions: Number(r.transitions),
      }));
    },

    async graphEdges() {
      return sql.all<GraphEdge>(
        `SELECT source_id AS "sourceId", target_id AS "targetId" FROM relationships
          WHERE valid_to IS NULL AND source_id <> target_id ORDER BY id`,
      );
    },

    async linkedPairs() {
      return sql.all<GraphEdge>(
        `SELECT DISTINCT source_id AS "sourceId", target_id AS "targetId" FROM relationships
          WHERE source_id <> target_id ORDER BY "sourceId", "targetId"`,
      );
    },

    async getRow({ table, id }) {
      const key = keyOf(checkTable(table), id);
      const cols = await known(table);
      const row = await sql.one<RawRow>(`SELECT ${cols.join(', ')} FROM ${table} WHERE ${key.where}`, key.params);
      return row ?? null;
    },

    async entityRows({ table, entityId }) {
      const keys = ROW_KEYS[checkTable(table)];
      if (keys[0] !== 'entity_id' || keys.length !== 2) {
        throw new PieError('INVALID_ARGUMENT', `${table} rows are not keyed by an entity.`);
      }
      const cols = await known(table);
      const rows = await sql.all<RawRow>(
        `SELECT ${cols.join(', ')} FROM ${table} WHERE entity_id = @entityId ORDER BY ${keys.join(', ')}`,
        { entityId },
      );
      return rows.map((row) => ({ id: keys.map((c) => String(row[c])).join(ROW_ID_SEPARATOR), row }));
    },

    async putRow({ table, id, row }) {
      const key = keyOf(checkTable(table), id);
      if (row === null) {
        await sql.run(`DELETE FROM ${table} WHERE ${key.where}`, key.params);
        return;
      }
      const cols = new Set(await known(table));
      const unknown = Object.keys(row).filter((name) => !cols.has(name));
      if (unknown.length > 0) {
        throw new PieError('INVALID_ARGUMENT', `Table ${table} has no column ${unknown.join(', ')}.`);
      }
      const names = Object.keys(row).filter((name) => !key.columns.includes(name));
      const params: Params = { ...key.params };
      names.forEach((name, i) => (params[`v${i}`] = row[name] ?? null));
      await sql.atomic(async (tx) => {
        const exists = await tx.one(`SELECT 1 FROM ${table} WHERE ${key.where} FOR UPDATE`, key.params);
        if (exists) {
          if (names.length === 0) return;
          await tx.run(
            `UPDATE ${table} SET ${names.map((n, i) => `${n} = @v${i}`).join(', ')} WHERE ${key.where}`,
            params,
          );
          return;
        }
        const all = [...key.columns, ...names];
        const values = [...key.columns.map((_c, i) => `@k${i}`), ...names.map((_n, i) => `@v${i}`)];
        await tx.run(`INSERT INTO ${table} (${all.join(', ')}) VALUES (${values.join(', ')})`, params);
      });
    },
  };
}
