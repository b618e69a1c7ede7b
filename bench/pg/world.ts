import { rmSync } from 'node:fs';
import pg from 'pg';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { migrateStore } from '../../src/backup/migrate.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { BENCH_TMP } from '../workspace.js';
import { freshPgStore } from './server.js';

export interface CopiedWorld {
  sqlite: WorldStore;
  postgres: WorldStore;
  /** Rows copied, and how long `migrateStore` (copy out, copy in, verify both sides) took. */
  rows: number;
  copyMs: number;
}

/**
 * The SQLite world at `path`, and the same world copied into a fresh schema of the bench server with
 * `pie migrate-store`'s code (through the backup format, verified by row counts and checksums), so both stores
 * answer over identical data.
 */
export async function copiedWorld(input: { path: string; url: string; schema: string }): Promise<CopiedWorld> {
  const sqlite = await openSqliteStore({ path: input.path });
  const postgres = await freshPgStore({ url: input.url, schema: input.schema });
  console.log(`Copying the world into PostgreSQL (schema ${input.schema})…`);
  const started = performance.now();
  let last = 0;
  const scratch = join(BENCH_TMP, `${input.schema}.pie-backup`);
  const summary = await migrateStore({
    source: sqlite,
    target: postgres,
    scratch,
    now: Date.now(),
    onProgress: (phase, table, rows) => {
      if (performance.now() - last > 5_000) {
        last = performance.now();
        console.log(`  ${phase}: ${table} ${rows.toLocaleString('en-US')}`);
      }
    },
  }).finally(() => rmSync(scratch, { force: true }));
  const copyMs = performance.now() - started;
  console.log(`  ${summary.rows.toLocaleString('en-US')} rows in ${(copyMs / 1000).toFixed(0)} s, checksums equal`);
  return { sqlite, postgres, rows: summary.rows, copyMs };
}

/**
 * `VACUUM (ANALYZE)` of every table of a freshly copied schema, as after any bulk load (PostgreSQL's own advice
 * after a restore): the planner statistics the search budget reads exist, and the timed loop does not race
 * autovacuum's first pass over a million new rows (hint bits, visibility map, statistics). Returns the time it took.
 */
export async function settleSchema(input: { url: string; schema: string }): Promise<number> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: input.url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`,
      [input.schema],
    );
    const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;
    const list = tables.rows.map((t) => `${quoted(input.schema)}.${quoted(t.name)}`).join(', ');
    if (list !== '') await client.query(`VACUUM (ANALYZE) ${list}`);
  } finally {
    await client.end();
  }
  return performance.now() - started;
}
