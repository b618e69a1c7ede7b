/**
 * Raw table access for backup and restore (`store.dump`): every stored row, table by table, in a stable order, and
 * the inverse (clear and insert rows exactly as they were). Derived data (full-text indexes) is left out: the
 * adapter rebuilds it as rows come back. Core code never interprets the rows; the backup format carries them.
 */

/** One stored value: text, a number, bytes or null. */
export type CellValue = string | number | Uint8Array | null;

export interface DumpTable {
  name: string;
  /**
   * The columns in storage order. An adapter may add a key of its own that rows must keep to stay identical
   * (SQLite: `rowid` for tables whose rowid is not a declared column, since full-text indexes refer to it).
   */
  columns: string[];
}

export interface DumpPage {
  /** Each row's values in `columns` order. */
  rows: CellValue[][];
  /** Pass as `after` to read the next page; null when this was the last one. */
  next: number | null;
}

export interface DumpStore {
  /** The tables that hold data, parents before children (restore order); derived indexes are left out. */
  tables(): Promise<DumpTable[]>;
  /** Up to `limit` rows of `table` in a stable order, after the cursor `after` (null: from the start). */
  page(input: { table: string; after: number | null; limit: number }): Promise<DumpPage>;
  /** How many rows `table` holds. */
  count(table: string): Promise<number>;
  /** Deletes every row of these tables (children first; use inside a transaction). */
  clear(tables: readonly string[]): Promise<void>;
  /**
   * Inserts rows exactly as given (`columns` must be columns of `table`, as `tables()` names them). References
   * between tables are checked when the enclosing transaction commits, so tables may come in any order.
   */
  insert(input: { table: string; columns: readonly string[]; rows: readonly (readonly CellValue[])[] }): Promise<void>;
}
