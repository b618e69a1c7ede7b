import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { freshSchemaName, type TestServer } from './postgres.js';

/** A memory the many-processes tests run real `pie` processes on, and a way to count its rows from outside. */
export interface Memory {
  /** What `--db` gets. */
  db: string;
  /** One number from the memory's tables (schema "pie" on PostgreSQL); 0 before the tables exist. */
  count(sql: string): Promise<number>;
}

export async function sqliteMemory(dir: string, name: string): Promise<Memory> {
  const db = join(dir, `${name}.db`);
  return {
    db,
    count: async (sql) => {
      try {
        const d = new Database(db, { readonly: true, timeout: 1000 });
        try {
          return (d.prepare(sql).get() as { n: number }).n;
        } finally {
          d.close();
        }
      } catch {
        return 0; // not created yet
      }
    },
  };
}

/** A new database on the server, so each scenario starts empty. */
export async function postgresMemory(server: TestServer): Promise<Memory> {
  const name = freshSchemaName();
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  const db = url.toString();
  return {
    db,
    count: async (sql) => {
      const client = new pg.Client({ connectionString: db, options: '-c search_path=pie' });
      await client.connect();
      try {
        return Number((await client.query<{ n: string }>(sql)).rows[0]?.n ?? 0);
      } catch {
        return 0; // schema not created yet
      } finally {
        await client.end();
      }
    },
  };
}

/** The counts two runs are compared by. */
export interface WorldCounts {
  entities: number;
  transitions: number;
  relationships: number;
  facts: number;
  episodes: number;
  /** Episodes not extracted. */
  pending: number;
  /** Completed sleeps in the maintenance log. */
  sleeps: number;
  /** Maintenance runs that did not complete. */
  failed: number;
  /** Work leases left (none when every process has ended). */
  leases: number;
}

export async function worldCounts(m: Memory): Promise<WorldCounts> {
  const n = (table: string): Promise<number> => m.count(`SELECT count(*) AS n FROM ${table}`);
  return {
    entities: await n('entities'),
    transitions: await n('transitions'),
    relationships: await n('relationships'),
    facts: await n('facts'),
    episodes: await n('episodes'),
    pending: await m.count("SELECT count(*) AS n FROM episodes WHERE extraction <> 'extracted'"),
    sleeps: await m.count("SELECT count(*) AS n FROM maintenance_log WHERE kind = 'sleep' AND status = 'completed'"),
    failed: await m.count("SELECT count(*) AS n FROM maintenance_log WHERE status <> 'completed'"),
    leases: await n('work_leases'),
  };
}

/** Episodes holding exactly this text (no single quotes in it), and how many of them are extracted. */
export async function episodesWithText(m: Memory, text: string): Promise<{ stored: number; extracted: number }> {
  if (text.includes("'")) throw new Error('episodesWithText takes a text without single quotes');
  const from = `FROM episodes e WHERE e.id IN (SELECT t.episode_id FROM turns t WHERE t.text = '${text}')`;
  return {
    stored: await m.count(`SELECT count(*) AS n ${from}`),
    extracted: await m.count(`SELECT count(*) AS n ${from} AND e.extraction = 'extracted'`),
  };
}

/** Polls `check` every 100 ms until it holds; fails after `timeoutMs` naming `what`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting: ${what}`);
}

/** Resolves once the memory has applied a few batches: an extraction holds the lease and is under way. */
export function extracting(m: Memory): Promise<void> {
  return until(
    'the ingest never got going',
    async () => (await m.count("SELECT count(*) AS n FROM ingest_batches WHERE status = 'done'")) >= 3,
  );
}
