import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pie, pieJson, SAMPLE, tempDir } from '../helpers/cli.js';
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
});
