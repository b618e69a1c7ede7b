import { createHash } from 'node:crypto';
import type { DumpStore } from '../ports/dump-store.js';
import { encodeRow } from './format.js';

/**
 * The portable form of a dumped row, the same whichever adapter stored it. Adapters keep a key of their own that
 * only records insertion order: SQLite its hidden `rowid`, PostgreSQL an `ord` identity column on the tables whose
 * order it needs. They are the only columns the two dumps do not share (SQLite schema 9 and PostgreSQL schema 4
 * hold the same data), so a backup moves between adapters by renaming one order key to the other where the target
 * has it and leaving it out where it has none (the target numbers the rows in the order they come, which is the
 * order the source dumped them in). No other column is ever dropped: an unknown one refuses the restore.
 */
export const ORDER_KEYS: readonly string[] = ['rowid', 'ord'];

export interface ColumnMapping {
  /** The target column each backup column goes to, or null when the backup's order key has no place there. */
  targets: (string | null)[];
  /** Backup columns the target does not have and that are not order keys (the restore is refused). */
  missing: string[];
}

/** Maps a backup table's columns onto the target table's (see ORDER_KEYS). */
export function mapColumns(input: { columns: readonly string[]; target: readonly string[] }): ColumnMapping {
  const { columns, target } = input;
  const missing: string[] = [];
  const targets = columns.map((column): string | null => {
    if (target.includes(column)) return column;
    if (!ORDER_KEYS.includes(column)) {
      missing.push(column);
      return null;
    }
    const other = ORDER_KEYS.find((key) => key !== column && target.includes(key) && !columns.includes(key));
    return other ?? null;
  });
  return { targets, missing };
}

export interface PortableTable {
  rows: number;
  /** An order-independent hash of the table's portable rows (hex). */
  checksum: string;
}

const MODULUS = 1n << 256n;

/**
 * Per-table row counts and checksums of the portable rows of `dump`: each row without its order key, its values in
 * column-name order, hashed with SHA-256; a table's checksum is the sum of its rows' hashes modulo 2^256, so it does
 * not depend on the order the adapter pages rows in (by order key on one, by primary key on the other) and a
 * duplicated or missing row changes it. Memory stays bounded by a page.
 */
export async function portableChecksums(input: {
  dump: DumpStore;
  pageRows?: number;
  onRows?: (table: string, rows: number) => void;
}): Promise<Record<string, PortableTable>> {
  const { dump } = input;
  const limit = input.pageRows ?? 1000;
  const result: Record<string, PortableTable> = {};
  for (const table of await dump.tables()) {
    const kept = table.columns
      .map((name, index) => ({ name, index }))
      .filter((c) => !ORDER_KEYS.includes(c.name))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const header = JSON.stringify(kept.map((c) => c.name));
    let sum = 0n;
    let rows = 0;
    let after: number | null = null;
    do {
      const page = await dump.page({ table: table.name, after, limit });
      for (const row of page.rows) {
        const text = `${header}\n${encodeRow(kept.map((c) => row[c.index] ?? null))}`;
        sum = (sum + BigInt(`0x${createHash('sha256').update(text).digest('hex')}`)) % MODULUS;
      }
      rows += page.rows.length;
      input.onRows?.(table.name, rows);
      after = page.next;
    } while (after !== null);
    result[table.name] = { rows, checksum: sum.toString(16).padStart(64, '0') };
  }
  return result;
}
