import { PieError } from '../../../domain/errors.js';
import type { CellValue, DumpStore, DumpTable } from '../../../ports/dump-store.js';
import { tableColumns } from './columns.js';
import type { VectorMode } from './connection.js';
import { vectorLiteralOfBytes } from './embeddings.js';
import type { HnswIndexes } from './hnsw.js';
import { quoteIdent, type Params, type Sql } from './sql.js';
import { KNOWN_ORDER, NOT_DATA, toCell } from '../sqlite/dump.js';

/** Derived columns, rebuilt from the others as rows come back (search text and vectors in pgvector's type). */
const DERIVED = new Set(['search_text', 'search_tsv', 'embedding']);

/** At most this many bound values per INSERT statement (PostgreSQL allows 65535). */
const MAX_VALUES = 8000;

interface TableShape extends DumpTable {
  /** The identity column rows are paged by (the cursor is its last value), or null: paged by offset in key order. */
  identity: string | null;
  orderBy: string;
}

async function describe(sql: Sql): Promise<Map<string, TableShape>> {
  const names = (
    await sql.all<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    )
  )
    .map((r) => r.name)
    .filter((name) => !NOT_DATA.has(name));
  const rank = (name: string): number => {
    const i = KNOWN_ORDER.indexOf(name);
    return i === -1 ? KNOWN_ORDER.length : i;
  };
  names.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const shapes = new Map<string, TableShape>();
  for (const name of names) {
    const cols = (await tableColumns(sql, name)).filter((c) => !c.generated && !DERIVED.has(c.name));
    const identity = cols.find((c) => c.identity)?.name ?? null;
    const keys = await sql.all<{ name: string }>(
      `SELECT a.attname AS name FROM pg_index i
         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
        WHERE i.indrelid = (quote_ident(current_schema()) || '.' || quote_ident(@table))::regclass AND i.indisprimary
        ORDER BY array_position(i.indkey::int2[], a.attnum)`,
      { table: name },
    );
    const order = keys.length > 0 ? keys.map((k) => k.name) : cols.map((c) => c.name);
    shapes.set(name, {
      name,
      columns: cols.map((c) => c.name),
      identity,
      orderBy: identity !== null ? quoteIdent(identity) : order.map(quoteIdent).join(', '),
    });
  }
  return shapes;
}

/** Asks for the HNSW index of every kind and size among restored vector rows. */
function wantIndexes(hnsw: HnswIndexes, columns: readonly string[], rows: readonly (readonly CellValue[])[]): void {
  const kindAt = columns.indexOf('owner_kind');
  const dimsAt = columns.indexOf('dims');
  for (const row of rows) {
    const kind = row[kindAt];
    const dims = row[dimsAt];
    if (
      (kind === 'entity' || kind === 'episode' || kind === 'transition') &&
      Number.isInteger(dims) &&
      Number(dims) > 0
    ) {
      hnsw.want({ kind, dims: Number(dims) });
    }
  }
}

/**
 * Backup and restore rows over PostgreSQL. Identity columns (the `ord`/`rid` order columns, turns.id) are carried
 * so a restored table keeps its order; their sequences are moved past the restored values. Search columns and
 * pgvector's copy of a vector are derived: left out of a dump and rebuilt on insert. References are checked at
 * COMMIT during clear and insert (SET CONSTRAINTS ALL DEFERRED; every foreign key is deferrable since schema 3).
 */
export function createDumpStore(
  sql: Sql,
  context: { vectors: VectorMode; hnsw: HnswIndexes | null; inTransaction: () => boolean },
): DumpStore {
  const { vectors, hnsw } = context;
  let cached: Promise<Map<string, TableShape>> | undefined;
  const shapes = (): Promise<Map<string, TableShape>> => (cached ??= describe(sql));
  const shape = async (table: string): Promise<TableShape> => {
    const found = (await shapes()).get(table);
    if (!found) {
      throw new PieError('INVALID_ARGUMENT', `This database has no data table "${table}".`, { details: { table } });
    }
    return found;
  };

  return {
    async tables() {
      return [...(await shapes()).values()].map((t) => ({ name: t.name, columns: [...t.columns] }));
    },

    async page({ table, after, limit }) {
      const t = await shape(table);
      if (!Number.isInteger(limit) || limit <= 0) {
        throw new PieError('INVALID_ARGUMENT', `limit must be a positive integer, got ${String(limit)}.`);
      }
      const cols = t.columns.map(quoteIdent).join(', ');
      if (t.identity === null) {
        const offset = after ?? 0;
        const rows = await sql.all<Record<string, unknown>>(
          `SELECT ${cols} FROM ${quoteIdent(t.name)} ORDER BY ${t.orderBy} LIMIT @limit OFFSET @offset`,
          { limit, offset },
        );
        return {
          rows: rows.map((r) => t.columns.map((c) => toCell(r[c]))),
          next: rows.length < limit ? null : offset + rows.length,
        };
      }
      const rows = await sql.all<Record<string, unknown>>(
        `SELECT ${cols} FROM ${quoteIdent(t.name)} WHERE ${t.orderBy} > @after ORDER BY ${t.orderBy} LIMIT @limit`,
        { after: after ?? Number.MIN_SAFE_INTEGER, limit },
      );
      const last = rows.at(-1);
      return {
        rows: rows.map((r) => t.columns.map((c) => toCell(r[c]))),
        next: rows.length < limit || last === undefined ? null : Number(last[t.identity]),
      };
    },

    async count(table) {
      const t = await shape(table);
      const row = await sql.one<{ n: number }>(`SELECT count(*) AS n FROM ${quoteIdent(t.name)}`);
      return Number(row?.n ?? 0);
    },

    async clear(tables) {
      const ordered = (await Promise.all(tables.map(shape))).reverse();
      await sql.atomic(async (tx) => {
        await tx.run('SET CONSTRAINTS ALL DEFERRED');
        for (const t of ordered) await tx.run(`DELETE FROM ${quoteIdent(t.name)}`);
      });
    },

    async insert({ table, columns, rows }) {
      const t = await shape(table);
      const unknown = columns.filter((c) => !t.columns.includes(c));
      if (unknown.length > 0) {
        throw new PieError('INVALID_DATA', `Table ${table} has no column ${unknown.join(', ')}.`, {
          details: { table, columns: unknown },
        });
      }
      if (columns.length === 0) throw new PieError('INVALID_DATA', `No columns given for table ${table}.`);
      for (const row of rows) {
        if (row.length !== columns.length) {
          throw new PieError(
            'INVALID_DATA',
            `A row of table ${table} has ${row.length} values for ${columns.length} columns.`,
          );
        }
      }
      const vectorAt = t.name === 'embeddings' && vectors === 'pgvector' ? columns.indexOf('vector') : -1;
      const names = vectorAt >= 0 ? [...columns, 'embedding'] : [...columns];
      const perChunk = Math.max(1, Math.floor(MAX_VALUES / names.length));
      await sql.atomic(async (tx) => {
        await tx.run('SET CONSTRAINTS ALL DEFERRED');
        for (let start = 0; start < rows.length; start += perChunk) {
          const chunk = rows.slice(start, start + perChunk);
          const params: Params = {};
          const tuples = chunk.map((row, r) => {
            const cells: CellValue[] = [...row];
            if (vectorAt >= 0) {
              const bytes = row[vectorAt];
              cells.push(bytes instanceof Uint8Array ? vectorLiteralOfBytes(bytes) : null);
            }
            const slots = cells.map((value, c) => {
              params[`r${r}c${c}`] = value;
              return names[c] === 'embedding' ? `@r${r}c${c}::vector` : `@r${r}c${c}`;
            });
            return `(${slots.join(', ')})`;
          });
          await tx.run(
            `INSERT INTO ${quoteIdent(t.name)} (${names.map(quoteIdent).join(', ')}) VALUES ${tuples.join(', ')}`,
            params,
          );
        }
        if (t.identity !== null && columns.includes(t.identity)) {
          // Later rows must not reuse a restored value: the sequence continues past the largest one.
          await tx.run(
            `SELECT setval(pg_get_serial_sequence(quote_ident(current_schema()) || '.' || quote_ident(@table), @column),
                           coalesce((SELECT max(${quoteIdent(t.identity)}) FROM ${quoteIdent(t.name)}), 0) + 1, false)`,
            { table: t.name, column: t.identity },
          );
        }
      });
      if (hnsw && t.name === 'embeddings') {
        wantIndexes(hnsw, columns, rows);
        if (!context.inTransaction()) await hnsw.buildWanted(sql);
      }
    },
  };
}
