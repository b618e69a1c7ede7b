import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/adapters/store/postgres/index.js';
import { describeWithPostgres, dropSchema, freshSchemaName } from '../helpers/postgres.js';
import { describeWorldStoreContract } from './world-store.contract.js';
import { T0 } from './world-store/fixtures.js';

describeWithPostgres('PostgreSQL server', (server) => {
  const url = (): string => server().url;

  describeWorldStoreContract('postgres (real server, a fresh schema per test)', async () => {
    const schema = freshSchemaName();
    const store = await openPostgresStore({ url: url(), schema, clock: () => T0, poolSize: 4 });
    return {
      store,
      reopen: () => openPostgresStore({ url: url(), schema, clock: () => T0, poolSize: 2 }),
      async cleanup() {
        await store.close();
        await dropSchema(url(), schema);
      },
    };
  });

  it('names the adapter and strips credentials from its location', async () => {
    const schema = freshSchemaName();
    const withPassword = url().replace('postgres://postgres@', 'postgres://postgres:s3cret@');
    const store = await openPostgresStore({ url: withPassword, schema });
    try {
      const info = store.info();
      expect(info.adapter).toBe('postgres');
      expect(info.location).not.toContain('s3cret');
    } finally {
      await store.close();
      await dropSchema(url(), schema);
    }
  });

  it('says in one sentence when the server cannot be reached', async () => {
    const error = await openPostgresStore({ url: 'postgres://pie:pw@127.0.0.1:1/none' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'DB_ERROR' });
    expect(String((error as Error).message)).toContain('Cannot reach the PostgreSQL server');
    expect(String((error as Error).message)).not.toContain(':pw@');
  });
});

describe('PGlite (in-process PostgreSQL with pgvector)', () => {
  let db: PGlite | undefined;
  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector }, parsers: { 20: (value: string) => Number(value) } });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  describeWorldStoreContract('postgres (PGlite, a fresh schema per test)', async () => {
    if (!db) throw new Error('PGlite did not start');
    const pglite = db;
    const schema = freshSchemaName();
    const store = await openPostgresStore({ pglite, schema, clock: () => T0 });
    return {
      store,
      // PGlite is one connection in this process: a second store object on it is the other writer here.
      reopen: () => openPostgresStore({ pglite, schema, clock: () => T0 }),
      async cleanup() {
        await store.close();
        await pglite.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      },
    };
  });
});
