import Database from 'better-sqlite3';

/**
 * Every row of every table of a database file, sorted, as JSON: the audit tables (journal, maintenance log), the
 * full-text indexes and the tables in `leaveOut` excepted. Two snapshots are equal when a change was undone exactly.
 */
export function snapshot(db: string, leaveOut: readonly string[] = []): Record<string, string[]> {
  const conn = new Database(db, { readonly: true });
  try {
    const tables = (conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[])
      .map((r) => r.name)
      .filter((n) => !/_fts|^sqlite_|^journal$|^maintenance_log$/.test(n) && !leaveOut.includes(n));
    const out: Record<string, string[]> = {};
    for (const t of tables) {
      out[t] = (conn.prepare(`SELECT * FROM ${t}`).all() as unknown[]).map((r) => JSON.stringify(r)).sort();
    }
    return out;
  } finally {
    conn.close();
  }
}

/** The rows a read-only query returns, on its own connection. */
export function rows<T>(db: string, sql: string, ...params: unknown[]): T[] {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare(sql).all(...params) as T[];
  } finally {
    conn.close();
  }
}
