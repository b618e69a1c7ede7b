import type { Sql } from './sql.js';

/**
 * Columns of the PostgreSQL schema that only this adapter has: identity columns standing in for SQLite's rowid
 * order, and search columns derived from the others (kept by triggers or generated). Raw rows leave them out.
 */
export const INTERNAL_COLUMNS = new Set(['ord', 'rid', 'search_text', 'search_tsv', 'embedding']);

/** The columns of a table in the current schema, in storage order, with whether each is an identity or generated. */
export async function tableColumns(
  sql: Sql,
  table: string,
): Promise<{ name: string; identity: boolean; generated: boolean }[]> {
  const rows = await sql.all<{ name: string; is_identity: string; is_generated: string }>(
    `SELECT column_name AS name, is_identity, is_generated FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = @table ORDER BY ordinal_position`,
    { table },
  );
  return rows.map((r) => ({ name: r.name, identity: r.is_identity === 'YES', generated: r.is_generated === 'ALWAYS' }));
}

/** The columns a raw row of `table` carries: the same as the SQLite store's. */
export async function portableColumns(sql: Sql, table: string): Promise<string[]> {
  return (await tableColumns(sql, table)).filter((c) => !INTERNAL_COLUMNS.has(c.name)).map((c) => c.name);
}
