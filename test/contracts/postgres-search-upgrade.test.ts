import pg from 'pg';
import { expect, it } from 'vitest';
import { openPostgresStore } from '../../src/adapters/store/postgres/index.js';
import { PG_MIGRATIONS } from '../../src/adapters/store/postgres/migrations/index.js';
import { describeWithPostgres, dropSchema, freshSchemaName } from '../helpers/postgres.js';
import { T0 } from './world-store/fixtures.js';

/**
 * A memory written before schema 6 (a C-locale cluster, as docs/postgres.md sets up) held “Harbour” and ‘Dune’ as
 * words with their quotes; opening it with this PIE migrates it, and the words it already held are found.
 */
describeWithPostgres('PostgreSQL search of a memory from schema 5', (server) => {
  it('finds words next to curly quotes in the turns and titles it held before', async () => {
    const schema = freshSchemaName();
    const client = new pg.Client({ connectionString: server().url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA "${schema}"; SET search_path TO "${schema}"`);
      for (const step of PG_MIGRATIONS.filter((m) => m.version <= 5)) {
        await client.query(step.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          step.version,
          step.name,
          T0,
        ]);
      }
      await client.query(
        `INSERT INTO episodes (id, source, external_id, title, created_at, updated_at, content_hash, recorded_at)
           VALUES ('e1', 'jsonl', 'c1', 'Reading “Harbour”', $1, $1, 'h', $1)`,
        [T0],
      );
      await client.query(`INSERT INTO turns (episode_id, seq, role, text, time) VALUES ('e1', 0, 'user', $1, $2)`, [
        'I finished ‘Dune’ at last — work–life balance restored',
        T0,
      ]);
      const before = await client.query(`SELECT count(*)::int AS n FROM turns WHERE search_tsv @@ to_tsquery('dune')`);
      expect(before.rows[0]).toEqual({ n: 0 });
    } finally {
      await client.end();
    }
    const store = await openPostgresStore({ url: server().url, schema, clock: () => T0 });
    try {
      expect((await store.search.turns({ text: 'Dune' })).map((h) => h.episodeId)).toEqual(['e1']);
      expect((await store.search.turns({ text: 'life' })).map((h) => h.episodeId)).toEqual(['e1']);
      expect((await store.search.episodes({ text: 'Harbour' })).map((h) => h.episodeId)).toEqual(['e1']);
    } finally {
      await store.close();
      await dropSchema(server().url, schema);
    }
  });
});
