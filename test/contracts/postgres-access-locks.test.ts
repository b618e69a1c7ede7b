import pg from 'pg';
import { expect, it } from 'vitest';
import { openPostgresStore } from '../../src/adapters/store/postgres/index.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { describeWithPostgres, dropSchema, freshSchemaName } from '../helpers/postgres.js';
import { addEntity, T0 } from './world-store/fixtures.js';

/**
 * Access counting (every query that records what it retrieved) against another process's transaction on the same
 * rows, on a real server. Found by the many-processes test (issue 18): `pie serve` answering `/api/ask` while a batch
 * or a sleep was applied failed with "deadlock detected", because one UPDATE locked the retrieved rows in its own
 * order while the other transaction locked them in another. The count must neither deadlock (which could also have
 * killed the sleep) nor be lost.
 */
describeWithPostgres('access counts beside another transaction (PostgreSQL server)', (server) => {
  async function withStore(fn: (store: WorldStore, schema: string) => Promise<void>): Promise<void> {
    const schema = freshSchemaName();
    const store = await openPostgresStore({ url: server().url, schema, clock: () => T0, poolSize: 4 });
    try {
      await fn(store, schema);
    } finally {
      await store.close();
      await dropSchema(server().url, schema);
    }
  }

  async function client(schema: string): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: server().url, options: `-c search_path=${schema}` });
    await c.connect();
    return c;
  }

  /** Resolves once some session of this database waits for a row lock. */
  async function someoneWaits(observer: pg.Client): Promise<void> {
    for (let i = 0; i < 600; i++) {
      const { rows } = await observer.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      if (Number(rows[0]?.n) > 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('no session ever waited for the lock');
  }

  for (const order of [
    ['a', 'b'],
    ['b', 'a'],
  ] as const) {
    it(`counts every access while a transaction updates ${order.join(' then ')} (no deadlock, nothing lost)`, async () => {
      await withStore(async (store, schema) => {
        await addEntity(store, 'a');
        await addEntity(store, 'b');
        const other = await client(schema);
        const observer = await client(schema);
        try {
          // Another process's transaction (a batch applied, a sleep) holds the first row and will want the second.
          await other.query('BEGIN');
          await other.query('UPDATE entities SET importance = 0.5 WHERE id = $1', [order[0]]);
          const counted = store.entities.incrementAccess(['a', 'b', 'a']).then(
            () => 'counted',
            (error: unknown) => error,
          );
          await someoneWaits(observer);
          await other.query('UPDATE entities SET importance = 0.5 WHERE id = $1', [order[1]]);
          await other.query('COMMIT');
          expect(await counted).toBe('counted');
        } finally {
          await other.end();
          await observer.end();
        }
        expect((await store.entities.get('a'))?.accessCount).toBe(2);
        expect((await store.entities.get('b'))?.accessCount).toBe(1);
        expect((await store.entities.get('a'))?.importance).toBe(0.5);
      });
    }, 60_000);
  }
});
