import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nearestSql } from '../../src/adapters/store/postgres/hnsw.js';
import { openPostgresStore } from '../../src/adapters/store/postgres/index.js';
import { bindNamed } from '../../src/adapters/store/postgres/sql.js';
import type { EmbeddingOwner, WorldStore } from '../../src/ports/world-store.js';
import { describeWithPostgres, dropSchema, freshSchemaName } from '../helpers/postgres.js';
import { T0 } from './world-store/fixtures.js';

/** Deterministic vectors: owner i of size `dims`. */
function vectorOf(i: number, dims: number): Float32Array {
  return Float32Array.from({ length: dims }, (_v, d) => Math.sin(i * 7.1 + d * 1.3) + (d === i % dims ? 0.5 : 0));
}

async function putMany(store: WorldStore, kind: EmbeddingOwner, count: number, dims: number): Promise<void> {
  await store.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      await tx.embeddings.put({
        ownerKind: kind,
        ownerId: `${kind}-${i}`,
        model: 'm',
        vector: vectorOf(i, dims),
        createdAt: T0,
      });
    }
  });
}

describe('PostgreSQL vectors with pgvector (PGlite): HNSW', () => {
  let db: PGlite | undefined;
  const opened: { store: WorldStore; schema: string }[] = [];
  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector }, parsers: { 20: (value: string) => Number(value) } });
  }, 120_000);
  afterAll(async () => {
    for (const { store } of opened) await store.close();
    await db?.close();
  });

  async function open(schema = freshSchemaName()): Promise<{ store: WorldStore; schema: string; pglite: PGlite }> {
    if (!db) throw new Error('PGlite did not start');
    const store = await openPostgresStore({ pglite: db, schema, clock: () => T0 });
    opened.push({ store, schema });
    return { store, schema, pglite: db };
  }

  /** Runs a query on the PGlite connection in the memory's schema. */
  async function rows<R>(pglite: PGlite, schema: string, text: string, values: unknown[] = []): Promise<R[]> {
    await pglite.exec(`SET search_path = "${schema}", public`);
    return (await pglite.query<R>(text, values)).rows;
  }

  it('says it searches with pgvector HNSW', async () => {
    const { store } = await open();
    expect(store.info()).toMatchObject({ vectors: 'pgvector', vectorSearch: 'pgvector HNSW' });
  });

  it('builds one HNSW index per owner kind and vector size once vectors are committed, and the search uses it', async () => {
    const { store, schema, pglite } = await open();
    await putMany(store, 'entity', 600, 12);
    await putMany(store, 'episode', 50, 12);
    await store.embeddings.put({
      ownerKind: 'entity',
      ownerId: 'small',
      model: 'm',
      vector: vectorOf(1, 4),
      createdAt: T0,
    });

    const indexes = await rows<{ indexname: string; indexdef: string }>(
      pglite,
      schema,
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE 'embeddings_hnsw%' ORDER BY 1`,
      [schema],
    );
    expect(indexes.map((i) => i.indexname)).toEqual([
      'embeddings_hnsw_entity_12',
      'embeddings_hnsw_entity_4',
      'embeddings_hnsw_episode_12',
    ]);
    expect(indexes[0]?.indexdef).toMatch(/USING hnsw \(\(\(?embedding\)?::vector\(12\)\) vector_cosine_ops\)/);
    expect(indexes[0]?.indexdef).toMatch(/WHERE \(\(dims = 12\) AND \(owner_kind = 'entity'::text\)\)/);

    // The plan of the very statement `nearest` runs, with its parameters.
    const query = vectorOf(3, 12);
    const bound = bindNamed(nearestSql({ kind: 'entity', dims: 12 }), {
      model: 'm',
      query: `[${Array.from(query).join(',')}]`,
      limit: 10,
    });
    const plan = (await rows<{ 'QUERY PLAN': string }>(pglite, schema, `EXPLAIN ${bound.text}`, bound.values))
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('Index Scan using embeddings_hnsw_entity_12 on embeddings');
    expect(plan).not.toContain('Seq Scan');

    const scans = async (): Promise<number> => {
      await rows(pglite, schema, 'SELECT pg_stat_force_next_flush()');
      await rows(pglite, schema, 'SELECT pg_stat_clear_snapshot()');
      const found = await rows<{ n: number }>(
        pglite,
        schema,
        `SELECT idx_scan::int AS n FROM pg_stat_user_indexes WHERE schemaname = $1 AND indexrelname = 'embeddings_hnsw_entity_12'`,
        [schema],
      );
      return found[0]?.n ?? -1;
    };
    const before = await scans();
    const hits = await store.embeddings.nearest({ ownerKind: 'entity', model: 'm', vector: query, limit: 10 });
    expect(await scans()).toBe(before + 1); // `nearest` itself went through the index
    expect(hits).toHaveLength(10);
    expect(hits[0]).toMatchObject({ ownerId: 'entity-3' });
    expect(hits[0]?.score).toBeCloseTo(1, 6);
    expect(hits.every((h) => h.ownerId.startsWith('entity-'))).toBe(true);
  });

  it('builds a missing index on the first search outside a transaction', async () => {
    const { store, schema, pglite } = await open();
    await putMany(store, 'entity', 20, 6);
    await rows(pglite, schema, 'DROP INDEX embeddings_hnsw_entity_6');
    // Reopened: this process does not know about the index (as after a restore by another process).
    const again = await open(schema);
    expect(
      await again.store.embeddings.nearest({ ownerKind: 'entity', model: 'm', vector: vectorOf(2, 6), limit: 1 }),
    ).toEqual([{ ownerId: 'entity-2', score: expect.closeTo(1, 6) as number }]);
    const found = await rows(
      pglite,
      schema,
      `SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = 'embeddings_hnsw_entity_6'`,
      [schema],
    );
    expect(found).toHaveLength(1);
  });

  it('builds the indexes of restored vectors when the restore commits', async () => {
    const source = await open();
    await putMany(source.store, 'episode', 40, 9);
    const table = (await source.store.dump.tables()).find((t) => t.name === 'embeddings');
    if (!table) throw new Error('no embeddings table');
    const page = await source.store.dump.page({ table: 'embeddings', after: null, limit: 1000 });
    const target = await open();
    await target.store.transaction((tx) =>
      tx.dump.insert({ table: 'embeddings', columns: table.columns, rows: page.rows }),
    );
    const found = await rows(
      target.pglite,
      target.schema,
      `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE 'embeddings_hnsw%'`,
      [target.schema],
    );
    expect(found).toEqual([{ indexname: 'embeddings_hnsw_episode_9' }]);
    const hits = await target.store.embeddings.nearest({
      ownerKind: 'episode',
      model: 'm',
      vector: vectorOf(5, 9),
      limit: 2,
    });
    expect(hits[0]?.ownerId).toBe('episode-5');
  });

  it('searches without an index, and without an error, when this role may not create one', async () => {
    const { store, schema, pglite } = await open();
    await putMany(store, 'entity', 10, 3);
    const role = `${schema}_writer`;
    await pglite.exec(
      `CREATE ROLE ${role}; GRANT CREATE ON DATABASE postgres TO ${role}; GRANT USAGE ON SCHEMA "${schema}" TO ${role};
       GRANT ALL ON ALL TABLES IN SCHEMA "${schema}" TO ${role}; GRANT ALL ON ALL SEQUENCES IN SCHEMA "${schema}" TO ${role};
       SET ROLE ${role}`,
    );
    try {
      const writer = await open(schema);
      expect(writer.store.info().vectorSearch).toBe('pgvector HNSW');
      await writer.store.embeddings.put({
        ownerKind: 'entity',
        ownerId: 'seven',
        model: 'm',
        vector: vectorOf(0, 7),
        createdAt: T0,
      });
      const hits = await writer.store.embeddings.nearest({
        ownerKind: 'entity',
        model: 'm',
        vector: vectorOf(0, 7),
        limit: 5,
      });
      expect(hits.map((h) => h.ownerId)).toEqual(['seven']);
      const three = await writer.store.embeddings.nearest({
        ownerKind: 'entity',
        model: 'm',
        vector: vectorOf(4, 3),
        limit: 1,
      });
      expect(three.map((h) => h.ownerId)).toEqual(['entity-4']);
    } finally {
      await pglite.exec('RESET ROLE');
    }
    const indexes = await rows<{ indexname: string }>(
      pglite,
      schema,
      `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE 'embeddings_hnsw%'`,
      [schema],
    );
    expect(indexes).toEqual([{ indexname: 'embeddings_hnsw_entity_3' }]);
  });

  it('fills the pgvector copy of vectors stored before pgvector was enabled', async () => {
    const { store, schema, pglite } = await open();
    await putMany(store, 'entity', 30, 5);
    await store.embeddings.put({
      ownerKind: 'entity',
      ownerId: 'nan',
      model: 'm',
      vector: Float32Array.from([1, NaN, 0, 0, 0]),
      createdAt: T0,
    });
    // As if the memory had been written on a server without pgvector: no pgvector column, no index.
    await rows(pglite, schema, 'ALTER TABLE embeddings DROP COLUMN embedding');
    const again = await open(schema);
    const filled = await rows<{ n: number }>(
      pglite,
      schema,
      'SELECT count(*)::int AS n FROM embeddings WHERE embedding IS NOT NULL',
    );
    expect(filled[0]?.n).toBe(30);
    const hits = await again.store.embeddings.nearest({
      ownerKind: 'entity',
      model: 'm',
      vector: vectorOf(7, 5),
      limit: 3,
    });
    expect(hits.map((h) => h.ownerId)[0]).toBe('entity-7');
    expect(hits).toHaveLength(3);
  });
});

describeWithPostgres('PostgreSQL server: vector search', (server) => {
  it('names its vector search: pgvector HNSW, or an exact scan when pgvector is not installed', async () => {
    const schema = freshSchemaName();
    const client = new pg.Client({ connectionString: server().url });
    await client.connect();
    const installed =
      (await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rows.length > 0;
    await client.end();
    const store = await openPostgresStore({ url: server().url, schema });
    try {
      expect(store.info().vectorSearch).toBe(installed ? 'pgvector HNSW' : 'exact scan (pgvector not installed)');
    } finally {
      await store.close();
      await dropSchema(server().url, schema);
    }
  });
});
