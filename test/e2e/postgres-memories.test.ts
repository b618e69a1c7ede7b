import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pie, pieJson, SAMPLE, tempDir } from '../helpers/cli.js';
import { describeWithPostgres } from '../helpers/postgres.js';

const G = ['--tz', 'UTC', '--now', '2025-06-01'];

interface Stats {
  database: string;
  episodes: number;
  entities: number;
  transitions: number;
}

describe('--memory on a SQLite file', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('is refused with one sentence, by flag and by PIE_MEMORY', async () => {
    const db = join(tmp.dir, 'one.db');
    const byFlag = await pie(['--db', db, '--memory', 'work', 'stats']);
    expect(byFlag.code).toBe(2);
    expect(byFlag.stderr).toMatch(/--memory selects one of several memories on a PostgreSQL server/);
    const byEnv = await pie(['--db', db, 'stats'], { PIE_MEMORY: 'work' });
    expect(byEnv.code).toBe(2);
    expect(byEnv.stderr).toMatch(/unset PIE_MEMORY/);
  });
});

describeWithPostgres('many memories in one PostgreSQL database', (server) => {
  it('keeps two memories apart: ingesting into one leaves the other (and the default) empty', async () => {
    const url = server().url;
    const ingested = await pie(['--db', url, '--memory', 'work', ...G, 'ingest', SAMPLE, '--extractor', 'offline']);
    expect(ingested.code, ingested.stderr).toBe(0);

    const work = await pieJson<Stats>(['--db', url, '--memory', 'work', 'stats']);
    const home = await pieJson<Stats>(['--db', url, '--memory', 'home', 'stats']);
    const byEnv = await pieJson<Stats>(['--db', url, 'stats'], { PIE_MEMORY: 'work' });
    const fallback = await pieJson<Stats>(['--db', url, 'stats']);
    expect(work.episodes).toBeGreaterThan(0);
    expect(work.entities).toBeGreaterThan(0);
    expect(work.database).toMatch(/\(schema pie_work\)$/);
    expect(byEnv).toEqual(work);
    expect(home).toMatchObject({ episodes: 0, entities: 0, transitions: 0 });
    expect(home.database).toMatch(/\(schema pie_home\)$/);
    expect(fallback).toMatchObject({ episodes: 0, entities: 0, transitions: 0 });

    const explicitDefault = await pieJson<Stats>(['--db', url, '--memory', 'default', 'stats']);
    expect(explicitDefault.database).toBe(fallback.database);

    // Each memory is its own schema in the one database.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const schemas = await client.query<{ name: string }>(
        `SELECT nspname AS name FROM pg_namespace WHERE nspname IN ('pie', 'pie_work', 'pie_home') ORDER BY 1`,
      );
      expect(schemas.rows.map((r) => r.name)).toEqual(['pie', 'pie_home', 'pie_work']);
      const episodes = await client.query<{ n: string }>(`SELECT count(*) AS n FROM pie_home.episodes`);
      expect(Number(episodes.rows[0]?.n)).toBe(0);
    } finally {
      await client.end();
    }

    // A memory is copied into another of the same database with migrate-store, and the two answer alike.
    const copied = await pie(['migrate-store', url, url, '--from-memory', 'work', '--to-memory', 'home', '--json']);
    expect(copied.code, copied.stderr).toBe(0);
    const homeAfter = await pieJson<Stats>(['--db', url, '--memory', 'home', 'stats']);
    expect({ ...homeAfter, database: '' }).toEqual({ ...work, database: '' });

    const bad = await pie(['--db', url, '--memory', 'Team-A', 'stats']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--memory "Team-A" is not a memory name/);
  }, 240_000);
});
