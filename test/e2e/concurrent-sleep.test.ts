import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE, finished, spawnPie, tempDir, type CliResult } from '../helpers/cli.js';
import { describeWithPostgres, freshSchemaName, type TestServer } from '../helpers/postgres.js';
import { writeSampleModel } from '../helpers/sample-model.js';

/**
 * Issue 18, "many processes, one memory": real `pie ingest` and `pie sleep` processes on one memory at once, on
 * SQLite and on a real PostgreSQL server. Two ingests and a sleep leave the world one ingest and then one sleep
 * leave; of two sleeps at once exactly one applies and the other refuses (exit 5) in one sentence.
 */

interface Memory {
  /** What `--db` gets. */
  db: string;
  /** One number from the memory's tables (schema "pie" on PostgreSQL). */
  count(sql: string): Promise<number>;
}

async function sqliteMemory(dir: string, name: string): Promise<Memory> {
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

async function postgresMemory(server: TestServer): Promise<Memory> {
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

async function worldCounts(m: Memory): Promise<Record<string, number>> {
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

/** Resolves once the memory has applied a few batches: an extraction holds the lease and is under way. */
async function extracting(m: Memory): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if ((await m.count("SELECT count(*) AS n FROM ingest_batches WHERE status = 'done'")) >= 3) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the ingest never got going');
}

function scenarios(label: string, open: (name: string) => Promise<Memory>): void {
  let dir: string;
  let cleanup: () => void;
  let script: string;
  let expected: Record<string, number>;
  beforeAll(() => {
    ({ dir, cleanup } = tempDir('pie-concurrent-sleep-'));
    // Slow enough (49 batches × 200 ms) that the processes overlap even when starting one is slow.
    script = writeSampleModel({ dir, delayMs: 200 });
  });
  afterAll(() => cleanup());

  const env = (): Record<string, string> => ({ PIE_HOME: dir });
  const ingest = (m: Memory): CliResult | Promise<CliResult> =>
    finished(
      spawnPie(
        ['--db', m.db, 'ingest', SAMPLE, '--llm', `fake:${script}`, '--concurrency', '1', '--consolidate-every', '0'],
        env(),
      ),
    );
  const sleep = (m: Memory): Promise<CliResult> =>
    finished(spawnPie(['--db', m.db, 'sleep', '--scope', 'full', '--no-llm'], env()));

  it(`${label}: one ingest, then one sleep (the reference)`, async () => {
    const m = await open('reference');
    const one = await ingest(m);
    expect(one.code, one.stderr).toBe(0);
    const slept = await sleep(m);
    expect(slept.code, slept.stderr).toBe(0);
    expected = await worldCounts(m);
    expect(expected.entities).toBeGreaterThan(40);
    expect(expected).toMatchObject({ pending: 0, sleeps: 1, failed: 0, leases: 0 });
  }, 180_000);

  it(`${label}: two ingests and a sleep at once leave the world one ingest and one sleep leave`, async () => {
    const m = await open('parallel');
    const first = ingest(m);
    const second = ingest(m);
    await extracting(m);
    const slept = await sleep(m);
    const [a, b] = await Promise.all([first, second]);
    for (const r of [a, b, slept]) expect(r.code, r.stderr).toBe(0);
    // The sleep found an extraction under way and waited for it, saying so in one sentence.
    expect(slept.stderr).toMatch(
      /Another extraction is running on this database: pie ingest .*\(process \d+ on .*\); waiting for it to finish, then this sleep runs on the world it leaves \(Ctrl-C stops waiting\)\./,
    );
    // One of the ingests waited for the other (or for the sleep).
    expect(`${a.stderr}\n${b.stderr}`).toMatch(/Another (extraction|sleep) is running on this database: .*; waiting/);
    expect(await worldCounts(m)).toEqual(expected);
  }, 180_000);

  it(`${label}: of two sleeps at once exactly one applies, the other refuses`, async () => {
    const m = await open('two-sleeps');
    const running = ingest(m);
    await extracting(m);
    // Both sleeps start while the extraction runs: one takes the sleep lease and waits for the extraction.
    const [s1, s2] = await Promise.all([sleep(m), sleep(m)]);
    const ran = await running;
    expect(ran.code, ran.stderr).toBe(0);
    const codes = [s1.code, s2.code].sort();
    expect(codes).toEqual([0, 5]);
    const refused = s1.code === 5 ? s1 : s2;
    expect(refused.stderr.trim()).toMatch(
      /^pie: Another sleep is running on this database: sleep via pie sleep --scope full \(process \d+ on .*, running for .*\); run again when it has finished\.$/,
    );
    expect(await worldCounts(m)).toEqual(expected);
  }, 180_000);
}

describe('concurrent sleep and ingest on SQLite', () => {
  let dir: string;
  let cleanup: () => void;
  beforeAll(() => {
    ({ dir, cleanup } = tempDir('pie-concurrent-sqlite-'));
  });
  afterAll(() => cleanup());
  scenarios('SQLite', (name) => sqliteMemory(dir, name));
});

describeWithPostgres('concurrent sleep and ingest on PostgreSQL', (server) => {
  scenarios('PostgreSQL', () => postgresMemory(server()));
});
