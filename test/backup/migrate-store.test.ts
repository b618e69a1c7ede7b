import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { pie, pieJson, SAMPLE, tempDir } from '../helpers/cli.js';
import { describeWithPostgres } from '../helpers/postgres.js';

const NOW = '2025-06-01';
const G = ['--tz', 'UTC', '--now', NOW];
const QUESTIONS = ['Who is Maya?', 'What happened with the job search?', 'What am I working on?'];

interface Migrated {
  rows: number;
  tables: Record<string, { rows: number; checksum: string }>;
}

async function contexts(db: string): Promise<string[]> {
  const out: string[] = [];
  for (const q of QUESTIONS) {
    const r = await pie(['--db', db, ...G, 'ask', q, '--context-only']);
    expect(r.code, r.stderr).toBe(0);
    out.push(r.stdout);
  }
  return out;
}

async function createDatabase(url: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

describe('pie migrate-store: refusals that need no server', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('refuses a missing source, a same-memory copy and an unknown scheme with one sentence and a non-zero exit', async () => {
    const missing = await pie(['migrate-store', join(tmp.dir, 'none.db'), join(tmp.dir, 'b.db')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/There is no SQLite memory at .*none\.db\./);
    expect(existsSync(join(tmp.dir, 'b.db'))).toBe(false);

    const same = await pie(['migrate-store', join(tmp.dir, 'a.db'), join(tmp.dir, 'a.db')]);
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/same memory/);

    const scheme = await pie(['migrate-store', 'mysql://u@h/db', join(tmp.dir, 'b.db')]);
    expect(scheme.code).toBe(2);
    expect(scheme.stderr).toMatch(/neither a SQLite file path nor a postgres:\/\/ URL/);
  });

  it('refuses a source table the target cannot hold, leaving no new target file behind', async () => {
    const odd = join(tmp.dir, 'odd.db');
    await (await openSqliteStore({ path: odd })).close();
    const conn = new Database(odd);
    conn.exec(`CREATE TABLE notes_of_a_newer_pie (x TEXT); INSERT INTO notes_of_a_newer_pie VALUES ('kept')`);
    conn.close();
    const target = join(tmp.dir, 'never.db');
    const r = await pie(['migrate-store', odd, target]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/this database has no table "notes_of_a_newer_pie"/);
    expect(existsSync(target)).toBe(false);
  });

  it('copies SQLite to SQLite and refuses a non-empty target unless --force', async () => {
    const a = join(tmp.dir, 'a.db');
    const b = join(tmp.dir, 'b.db');
    expect((await pie(['--db', a, ...G, 'ingest', SAMPLE, '--extractor', 'offline'])).code).toBe(0);
    const first = await pieJson<Migrated>(['migrate-store', a, b]);
    expect(first.rows).toBeGreaterThan(0);
    const again = await pie(['migrate-store', a, b]);
    expect(again.code).toBe(5);
    expect(again.stderr).toMatch(/already holds a memory .*pass --force/);
    const forced = await pieJson<Migrated>(['migrate-store', a, b, '--force']);
    expect(forced.tables).toEqual(first.tables);
    expect(await contexts(b)).toEqual(await contexts(a));
  }, 120_000);
});

describeWithPostgres('pie migrate-store between SQLite and a real PostgreSQL server', (running) => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('SQLite → PostgreSQL → PostgreSQL → SQLite keeps every row, the checksums and the context text', async () => {
    const server = running();
    const original = join(tmp.dir, 'original.db');
    const back = join(tmp.dir, 'back.db');
    const pgA = server.url;
    const pgB = await createDatabase(server.url, 'pie_copy');
    expect((await pie(['--db', original, ...G, 'ingest', SAMPLE, '--extractor', 'offline'])).code).toBe(0);
    const sqliteText = await contexts(original);

    const toPg = await pieJson<Migrated>(['migrate-store', original, pgA]);
    const pgToPg = await pieJson<Migrated>(['migrate-store', pgA, pgB]);
    const toSqlite = await pieJson<Migrated>(['migrate-store', pgB, back]);

    // Every table's row count and portable checksum agree across all four memories.
    expect(toPg.tables.entities?.rows).toBeGreaterThan(0);
    expect(toPg.tables.transitions?.rows).toBeGreaterThan(0);
    expect(pgToPg.tables).toEqual(toPg.tables);
    expect(toSqlite.tables).toEqual(toPg.tables);
    expect(toSqlite.rows).toBe(toPg.rows);

    // A second copy back over the first SQLite copy's source proves the checksums of a re-read side, too.
    const again = await pieJson<Migrated>(['migrate-store', back, original, '--force']);
    expect(again.tables).toEqual(toPg.tables);

    // The memory that went to PostgreSQL and back gives the very context text the original gave, and the two
    // PostgreSQL copies give each other's. Between the adapters the text is not compared: which entities and turns
    // a question finds comes from full-text ranking, which differs legitimately (FTS5's bm25 against PostgreSQL's
    // ts_rank; see docs/postgres.md); the rows underneath are compared above, by count and checksum.
    expect(sqliteText.join('')).toMatch(/Maya/);
    expect(await contexts(back)).toEqual(sqliteText);
    expect(await contexts(original)).toEqual(sqliteText);
    const pgText = await contexts(pgA);
    expect(pgText.join('')).toMatch(/Maya/);
    expect(await contexts(pgB)).toEqual(pgText);

    // pie restore takes a backup of the other adapter through the same mapping.
    const file = join(tmp.dir, 'sqlite-backup.jsonl');
    expect((await pie(['--db', back, 'backup', file, '--llm-cache'])).code).toBe(0);
    // (pie ask counted accesses since the copies above: the reference is taken now.)
    const reference = await pieJson<Migrated>(['migrate-store', back, join(tmp.dir, 'reference.db')]);
    const pgC = await createDatabase(server.url, 'pie_restored');
    const restored = await pie(['--db', pgC, 'restore', file]);
    expect(restored.code, restored.stderr).toBe(0);
    const check = await pieJson<Migrated>(['migrate-store', pgC, join(tmp.dir, 'check.db')]);
    expect(check.tables).toEqual(reference.tables);

    const stats = await pieJson<{ adapter: string }>(['--db', pgB, 'stats']);
    expect(stats.adapter).toBe('postgres');

    const refused = await pie(['migrate-store', original, pgA]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/already holds a memory/);
  }, 300_000);
});
