import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pie, pieJson, SAMPLE, tempDir } from '../helpers/cli.js';
import { KG_TITLE, writeNewerExport } from '../helpers/newer-export.js';
import { describeWithPostgres } from '../helpers/postgres.js';

/** Issue 18: the bundled sample ingested into PostgreSQL gives the same world model counts as into SQLite. */
describeWithPostgres('pie ingest into PostgreSQL', (server) => {
  let dir: string;
  let cleanup: () => void;
  beforeAll(() => {
    ({ dir, cleanup } = tempDir());
  });
  afterAll(() => cleanup());

  it('gives the same counts as SQLite and pie stats names PostgreSQL', async () => {
    const pgUrl = server().url;
    const sqlite = join(dir, 'pie.db');
    for (const db of [sqlite, pgUrl]) {
      await pieJson(['--db', db, 'ingest', SAMPLE, '--extractor', 'offline'], { PIE_HOME: dir });
    }
    type Stats = Record<string, unknown> & { adapter: string; database: string };
    const fromSqlite = await pieJson<Stats>(['--db', sqlite, 'stats'], { PIE_HOME: dir });
    const fromPg = await pieJson<Stats>(['--db', pgUrl, 'stats'], { PIE_HOME: dir });
    expect(fromPg.adapter).toBe('postgres');
    expect(fromPg.vectors).toMatch(/pgvector|exact scan/);
    const search = fromPg.vectors === 'pgvector' ? 'pgvector HNSW' : 'exact scan (pgvector not installed)';
    expect(fromPg.vectorSearch).toBe(search);
    // The text names the vector search once, on the database line.
    const text = (await pie(['--db', pgUrl, 'stats'], { PIE_HOME: dir })).stdout;
    expect(text.split('\n')[0]).toContain(`(vector search: ${search})`);
    expect(text.match(/vector search/g)).toHaveLength(1);
    for (const key of ['episodes', 'turns', 'entities', 'transitions', 'facts', 'currentFacts', 'relationships']) {
      expect(fromPg[key], key).toEqual(fromSqlite[key]);
    }
    expect(fromPg.entitiesByType).toEqual(fromSqlite.entitiesByType);
    expect(fromPg.transitions).toBeGreaterThan(0);
  }, 180_000);

  it('extracted out of date order, gives the same world as SQLite (moved first mentions, periods told late)', async () => {
    const pgUrl = server().url;
    const sqlite = join(dir, 'late.db');
    for (const db of [
      ['--db', sqlite],
      ['--db', pgUrl, '--memory', 'late'],
    ]) {
      for (const args of [['--limit', '5'], ['--since', '2025-06-01'], []]) {
        const r = await pie([...db, 'ingest', SAMPLE, '--extractor', 'offline', ...args], { PIE_HOME: dir });
        expect(r.code, r.stderr).toBe(0);
      }
    }
    const fromSqlite = await pieJson<Record<string, unknown>>(['--db', sqlite, 'stats'], { PIE_HOME: dir });
    const fromPg = await pieJson<Record<string, unknown>>(['--db', pgUrl, '--memory', 'late', 'stats'], {
      PIE_HOME: dir,
    });
    for (const key of ['entities', 'transitions', 'facts', 'currentFacts', 'relationships']) {
      expect(fromPg[key], key).toEqual(fromSqlite[key]);
    }
  }, 300_000);

  it('an older export imported after a newer one keeps the newer stored conversation', async () => {
    const pgUrl = server().url;
    const newer = join(dir, 'newer.json');
    writeNewerExport(newer);
    type Report = { import: { outcomes: Record<string, number>; keptNewer: { title: string }[] } };
    const updated = await pieJson<Report>(['--db', pgUrl, 'ingest', newer, '--extractor', 'offline'], {
      PIE_HOME: dir,
    });
    expect(updated.import.outcomes).toEqual({ inserted: 0, updated: 1, unchanged: 48 });
    const before = await pieJson<Record<string, unknown>>(['--db', pgUrl, 'stats'], { PIE_HOME: dir });
    expect(before.turns).toBe(152);
    const older = await pieJson<Report>(['--db', pgUrl, 'ingest', SAMPLE], { PIE_HOME: dir });
    expect(older.import.outcomes).toEqual({ inserted: 0, updated: 0, unchanged: 48 });
    expect(older.import.keptNewer.map((k) => k.title)).toEqual([KG_TITLE]);
    expect(await pieJson<Record<string, unknown>>(['--db', pgUrl, 'stats'], { PIE_HOME: dir })).toEqual(before);
  }, 180_000);
});
