import { PieError } from '../../../domain/errors.js';
import { MAINTENANCE_KINDS } from '../../../domain/world.js';
import {
  MAINTAINED_TABLES,
  ROW_ID_SEPARATOR,
  ROW_KEYS,
  type GraphEdge,
  type GraphNode,
  type MaintainedTable,
  type MaintenanceStore,
  type RawRow,
} from '../../../ports/maintenance-store.js';
import type { SyncOf } from './bind.js';
import type { Statements } from './sql.js';

export interface NodeRow {
  id: string;
  type: string;
  last_seen: number;
  access_count: number;
  importance: number;
  tier: string;
  protected: number;
  transitions: number;
}

/**
 * SQL, for both stores: the transition in `column` is no maintenance record (MAINTENANCE_KINDS): what counts of
 * the world's changes count.
 */
export function notMaintenance(column: string): string {
  return `${column} NOT IN (${[...MAINTENANCE_KINDS].map((k) => `'${k}'`).join(', ')})`;
}

export function checkTable(table: MaintainedTable): MaintainedTable {
  if (!(MAINTAINED_TABLES as readonly string[]).includes(table)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `Maintenance cannot touch table "${String(table)}"; use one of ${MAINTAINED_TABLES.join(', ')}.`,
    );
  }
  return table;
}

/** The key columns of `table` with their values from the row id (a composite id splits on ROW_ID_SEPARATOR). */
function keyOf(table: MaintainedTable, id: string): { where: string; columns: readonly string[]; values: string[] } {
  const columns = ROW_KEYS[table];
  const values = columns.length === 1 ? [id] : id.split(ROW_ID_SEPARATOR);
  if (values.length !== columns.length) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `A row id of ${table} joins ${columns.join(', ')} with U+001F; "${id}" has ${values.length} part(s).`,
    );
  }
  return { where: columns.map((c) => `${c} = ?`).join(' AND '), columns, values };
}

/** Column names are checked against the table's own columns, so a journal row cannot inject SQL. */
function columnsOf(s: Statements, table: MaintainedTable): Set<string> {
  const rows = s.get(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

export function createMaintenanceStore(s: Statements): SyncOf<MaintenanceStore> {
  const columns = new Map<MaintainedTable, Set<string>>();
  const known = (table: MaintainedTable): Set<string> => {
    let set = columns.get(table);
    if (!set) {
      set = columnsOf(s, table);
      columns.set(table, set);
    }
    return set;
  };

  return {
    graphNodes() {
      const rows = s
        .get(
          `SELECT e.id, e.type, e.last_seen, e.access_count, e.importance, e.tier, e.protected,
                  (SELECT count(*) FROM transitions t
                    WHERE t.entity_id = e.id AND ${notMaintenance('t.kind')}) AS transitions
             FROM entities e WHERE e.merged_into IS NULL ORDER BY e.id`,
        )
        .all() as NodeRow[];
      return rows.map((r): GraphNode => ({
        id: r.id,
        type: r.type,
        lastSeen: r.last_seen,
        accessCount: r.access_count,
        importance: r.importance,
        tier: r.tier,
        protected: r.protected === 1,
        transitions: r.transitions,
      }));
    },

    graphEdges() {
      return s
        .get(
          `SELECT source_id AS sourceId, target_id AS targetId FROM relationships
            WHERE valid_to IS NULL AND source_id <> target_id ORDER BY id`,
        )
        .all() as GraphEdge[];
    },

    linkedPairs() {
      return s
        .get(
          `SELECT DISTINCT source_id AS sourceId, target_id AS targetId FROM relationships
            WHERE source_id <> target_id ORDER BY source_id, target_id`,
        )
        .all() as GraphEdge[];
    },

    getRow({ table, id }) {
      const key = keyOf(checkTable(table), id);
      const row = s.get(`SELECT * FROM ${table} WHERE ${key.where}`).get(...key.values) as RawRow | undefined;
      return row ?? null;
    },

    entityRows({ table, entityId }) {
      const columns = ROW_KEYS[checkTable(table)];
      if (columns[0] !== 'entity_id' || columns.length !== 2) {
        throw new PieError('INVALID_ARGUMENT', `${table} rows are not keyed by an entity.`);
      }
      const rows = s
        .get(`SELECT * FROM ${table} WHERE entity_id = ? ORDER BY ${columns.join(', ')}`)
        .all(entityId) as RawRow[];
      return rows.map((row) => ({ id: columns.map((c) => String(row[c])).join(ROW_ID_SEPARATOR), row }));
    },

    putRow({ table, id, row }) {
      const key = keyOf(checkTable(table), id);
      s.atomic(() => {
        if (row === null) {
          s.get(`DELETE FROM ${table} WHERE ${key.where}`).run(...key.values);
          return;
        }
        const cols = known(table);
        const names = Object.keys(row).filter((name) => !key.columns.includes(name) && cols.has(name));
        const unknown = Object.keys(row).filter((name) => !cols.has(name));
        if (unknown.length > 0) {
          throw new PieError('INVALID_ARGUMENT', `Table ${table} has no column ${unknown.join(', ')}.`);
        }
        const values = names.map((name) => row[name] ?? null);
        const exists = s.pluck(`SELECT 1 FROM ${table} WHERE ${key.where}`).get(...key.values) !== undefined;
        if (exists) {
          if (names.length === 0) return;
          s.get(`UPDATE ${table} SET ${names.map((n) => `${n} = ?`).join(', ')} WHERE ${key.where}`).run(
            ...values,
            ...key.values,
          );
        } else {
          const all = [...key.columns, ...names];
          s.get(`INSERT INTO ${table} (${all.join(', ')}) VALUES (${all.map(() => '?').join(', ')})`).run(
            ...key.values,
            ...values,
          );
        }
      });
    },
  };
}
