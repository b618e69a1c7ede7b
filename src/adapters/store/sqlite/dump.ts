import { PieError } from '../../../domain/errors.js';
import type { CellValue, DumpStore, DumpTable } from '../../../ports/dump-store.js';
import type { SyncOf } from './bind.js';
import type { SqlValue, Statements } from './sql.js';

/**
 * Restore order for the tables PIE knows (parents first). Tables added by later migrations that are not listed
 * follow in name order; foreign keys are deferred during a restore, so the order only has to be stable.
 */
export const KNOWN_ORDER = [
  'episodes',
  'turns',
  'entities',
  'entity_aliases',
  'transitions',
  'facts',
  'relationships',
  'entity_mentions',
  'periods',
  'episode_periods',
  'procedures',
  'mental_models',
  'observations',
  'summaries',
  'insights',
  'embeddings',
  'ingest_runs',
  'ingest_batches',
  'journal',
  'maintenance_log',
  'llm_cache',
];

/**
 * Bookkeeping, not data: the schema's own (the backup header carries the version instead) and the leases of the
 * processes running when the backup was made.
 */
export const NOT_DATA = new Set(['schema_migrations', 'work_leases']);

interface TableShape extends DumpTable {
  /** Rows are paged by rowid (the cursor is the last rowid) or, for WITHOUT ROWID tables, by offset. */
  paging: 'rowid' | 'offset';
  orderBy: string;
}

interface ColumnInfo {
  name: string;
  type: string;
  pk: number;
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

function describe(s: Statements): Map<string, TableShape> {
  const all = s
    .get(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`)
    .all() as { name: string; sql: string | null }[];
  const virtual = all.filter((t) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(t.sql ?? '')).map((t) => t.name);
  const data = all.filter(
    (t) => !NOT_DATA.has(t.name) && !virtual.includes(t.name) && !virtual.some((v) => t.name.startsWith(`${v}_`)),
  );
  const rank = (name: string): number => {
    const i = KNOWN_ORDER.indexOf(name);
    return i === -1 ? KNOWN_ORDER.length : i;
  };
  data.sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const shapes = new Map<string, TableShape>();
  for (const t of data) {
    const cols = s.get(`SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid`).all(t.name) as ColumnInfo[];
    const pks = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    const names = cols.map((c) => c.name);
    if (/WITHOUT\s+ROWID/i.test(t.sql ?? '')) {
      shapes.set(t.name, {
        name: t.name,
        columns: names,
        paging: 'offset',
        orderBy: pks.map((c) => quote(c.name)).join(', '),
      });
      continue;
    }
    const alias = pks.length === 1 && pks[0]?.type.toUpperCase() === 'INTEGER';
    shapes.set(t.name, {
      name: t.name,
      columns: alias ? names : ['rowid', ...names],
      paging: 'rowid',
      orderBy: 'rowid',
    });
  }
  return shapes;
}

export function toCell(value: unknown): CellValue {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new PieError('INTERNAL', `Unexpected stored value of type ${typeof value}.`);
}

function toSql(value: CellValue): SqlValue {
  return value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value;
}

export function createDumpStore(s: Statements): SyncOf<DumpStore> {
  let cached: Map<string, TableShape> | undefined;
  const shapes = (): Map<string, TableShape> => (cached ??= describe(s));
  const shape = (table: string): TableShape => {
    const found = shapes().get(table);
    if (!found) {
      throw new PieError('INVALID_ARGUMENT', `This database has no data table "${table}".`, { details: { table } });
    }
    return found;
  };

  return {
    tables() {
      return [...shapes().values()].map((t) => ({ name: t.name, columns: [...t.columns] }));
    },

    page({ table, after, limit }) {
      const t = shape(table);
      if (!Number.isInteger(limit) || limit <= 0) {
        throw new PieError('INVALID_ARGUMENT', `limit must be a positive integer, got ${String(limit)}.`);
      }
      const cols = t.columns.map(quote).join(', ');
      if (t.paging === 'offset') {
        const offset = after ?? 0;
        const stmt = s.get(`SELECT ${cols} FROM ${quote(t.name)} ORDER BY ${t.orderBy} LIMIT ? OFFSET ?`);
        const rows = (stmt.raw(true).all(limit, offset) as unknown[][]).map((r) => r.map(toCell));
        return { rows, next: rows.length < limit ? null : offset + rows.length };
      }
      const stmt = s.get(`SELECT rowid, ${cols} FROM ${quote(t.name)} WHERE rowid > ? ORDER BY rowid LIMIT ?`);
      const raw = stmt.raw(true).all(after ?? Number.MIN_SAFE_INTEGER, limit) as unknown[][];
      const last = raw.at(-1);
      return {
        rows: raw.map((r) => r.slice(1).map(toCell)),
        next: raw.length < limit || last === undefined ? null : Number(last[0]),
      };
    },

    count(table) {
      return Number(s.pluck(`SELECT count(*) FROM ${quote(shape(table).name)}`).get());
    },

    clear(tables) {
      const ordered = tables.map(shape).reverse();
      s.atomic(() => {
        s.db.pragma('defer_foreign_keys = ON');
        for (const t of ordered) s.get(`DELETE FROM ${quote(t.name)}`).run();
      });
    },

    insert({ table, columns, rows }) {
      const t = shape(table);
      const unknown = columns.filter((c) => !t.columns.includes(c));
      if (unknown.length > 0) {
        throw new PieError('INVALID_DATA', `Table ${table} has no column ${unknown.join(', ')}.`, {
          details: { table, columns: unknown },
        });
      }
      if (columns.length === 0) throw new PieError('INVALID_DATA', `No columns given for table ${table}.`);
      const stmt = s.get(
        `INSERT INTO ${quote(t.name)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      s.atomic(() => {
        s.db.pragma('defer_foreign_keys = ON');
        for (const row of rows) {
          if (row.length !== columns.length) {
            throw new PieError(
              'INVALID_DATA',
              `A row of table ${table} has ${row.length} values for ${columns.length} columns.`,
            );
          }
          stmt.run(...row.map(toSql));
        }
      });
    },
  };
}
