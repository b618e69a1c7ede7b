import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { checkDatabase, migrate } from '../../src/adapters/store/sqlite/migrate.js';
import { describeWorldStoreContract } from './world-store.contract.js';
import { T0, addEntity, addEpisode, tick, transition, turn } from './world-store/fixtures.js';

describeWorldStoreContract('sqlite (temporary file)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pie-contract-'));
  const store = await openSqliteStore({ path: join(dir, 'pie.db'), clock: () => T0 });
  return {
    store,
    reopen: () => openSqliteStore({ path: join(dir, 'pie.db'), clock: () => T0 }),
    async cleanup() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('sqlite adapter', () => {
  let dir = '';
  let path = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pie-sqlite-'));
    path = join(dir, 'pie.db');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs `fn` on a plain better-sqlite3 connection to the same file, then closes it. */
  function raw<T>(fn: (db: Database.Database) => T, options: Database.Options = {}): T {
    const db = new Database(path, options);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  }

  it('creates the directory, turns on WAL and enforces foreign keys', async () => {
    path = join(dir, 'nested', 'deeper', 'pie.db');
    const store = await openSqliteStore({ path });
    await addEpisode(store, { externalId: 'a' });
    expect(raw((db) => db.pragma('journal_mode', { simple: true }))).toBe('wal');
    await expect(store.transitions.insert(transition('t', 'no-such-entity'))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(store.info()).toEqual({ adapter: 'sqlite', location: path, schemaVersion: LATEST_SCHEMA_VERSION });
    await store.close();
  });

  it('migrates once and keeps data across close and reopen', async () => {
    const first = await openSqliteStore({ path, clock: () => T0 });
    await addEpisode(first, { externalId: 'a', turns: [turn('user', 'persisted words')] });
    await addEntity(first, 'e1');
    await first.close();

    const second = await openSqliteStore({ path });
    expect(second.info().schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(await second.episodes.count()).toBe(1);
    expect(await second.entities.get('e1')).not.toBeNull();
    expect((await second.search.turns({ text: 'persisted' })).length).toBe(1);
    await second.close();

    const migrations = raw((db) => db.prepare('SELECT version, name, applied_at FROM schema_migrations').all());
    expect(migrations).toEqual([
      { version: 1, name: 'initial', applied_at: T0 },
      { version: 2, name: 'query_search', applied_at: T0 },
      { version: 3, name: 'pyramid', applied_at: T0 },
      { version: 4, name: 'history_counts', applied_at: T0 },
      { version: 5, name: 'sleep_tasks', applied_at: T0 },
      { version: 6, name: 'work_leases', applied_at: T0 },
      { version: 7, name: 'personal_bench', applied_at: T0 },
      { version: 8, name: 'forgotten_episodes', applied_at: T0 },
      { version: 9, name: 'relationship_keys', applied_at: T0 },
      { version: 10, name: 'tier_moves', applied_at: T0 },
    ]);
    expect(raw((db) => db.pragma('user_version', { simple: true }))).toBe(LATEST_SCHEMA_VERSION);
  });

  it('refuses a database written by a newer PIE and leaves the file untouched', async () => {
    const newer = LATEST_SCHEMA_VERSION + 1;
    raw((db) => {
      db.exec('CREATE TABLE future (x)');
      db.pragma(`user_version = ${newer}`);
      db.pragma(`application_id = ${0x50494500}`);
    });
    const before = await readFile(path);
    const error = await openSqliteStore({ path }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'DB_NEWER_SCHEMA',
      message: `The database ${path} was written by a newer PIE (schema ${newer}, this PIE knows ${LATEST_SCHEMA_VERSION}); upgrade PIE or use another --db.`,
    });
    expect((await readFile(path)).equals(before)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('never takes a new file another process is creating for a foreign database (its version and tables read at one moment)', () => {
    // Two processes opening one new file at once: the second read the version (0) before the first committed its
    // migration and the tables after it, and refused the file as "not a PIE database" (seen in the issue-18 e2e test).
    writeFileSync(path, '');
    const reader = new Database(path, { timeout: 0 });
    let interleaved: string | null = null;
    const probe = new Proxy(reader, {
      get(target, key) {
        if (key !== 'pragma') return Reflect.get(target, key, target) as unknown;
        return (source: string, options?: Database.PragmaOptions) => {
          const value: unknown = target.pragma(source, options);
          if (source === 'user_version' && interleaved === null) {
            // The other process migrates the file between this read and the next.
            const other = new Database(path, { timeout: 0 });
            try {
              migrate(other, path, () => T0);
              interleaved = 'migrated';
            } catch (error) {
              interleaved = (error as Error).message;
            } finally {
              other.close();
            }
          }
          return value;
        };
      },
    });
    try {
      const version = checkDatabase(probe, path);
      expect([0, LATEST_SCHEMA_VERSION]).toContain(version);
      // The read held the file: the other process could not commit in between (it waits for the lock, as a real one
      // would under its busy timeout).
      expect(interleaved).toMatch(/locked|busy/i);
    } finally {
      reader.close();
    }
  });

  it('refuses a file that is not a SQLite database', async () => {
    const text = 'This is a text file, not a database.\n'.repeat(200);
    await writeFile(path, text);
    await expect(openSqliteStore({ path })).rejects.toMatchObject({
      code: 'DB_CORRUPT',
      message: expect.stringContaining('is not a SQLite database') as unknown,
    });
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it("refuses another application's SQLite database", async () => {
    raw((db) => db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)'));
    await expect(openSqliteStore({ path })).rejects.toMatchObject({
      code: 'DB_CORRUPT',
      message: expect.stringContaining('not a PIE database') as unknown,
    });
  });

  it('reports DB_LOCKED when another connection holds the write lock, and recovers', async () => {
    const setup = await openSqliteStore({ path });
    await setup.close();
    const holder = new Database(path);
    holder.exec('BEGIN EXCLUSIVE');
    const store = await openSqliteStore({ path, busyTimeoutMs: 50 });
    try {
      await expect(addEpisode(store, { externalId: 'a' })).rejects.toMatchObject({
        code: 'DB_LOCKED',
        message: expect.stringContaining('is in use by another process') as unknown,
      });
      await expect(store.transaction(async (tx) => tx.episodes.count())).rejects.toMatchObject({ code: 'DB_LOCKED' });
      expect(await store.episodes.count()).toBe(0); // reading still works in WAL mode
      holder.exec('ROLLBACK');
      await addEpisode(store, { externalId: 'a' });
      expect(await store.transaction(async (tx) => tx.episodes.count())).toBe(1);
    } finally {
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
      await store.close();
    }
  });

  it('reports DB_LOCKED when a rollback-journal database is locked while opening', async () => {
    const holder = new Database(path);
    holder.exec('BEGIN EXCLUSIVE');
    try {
      await expect(openSqliteStore({ path, busyTimeoutMs: 50 })).rejects.toMatchObject({ code: 'DB_LOCKED' });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const store = await openSqliteStore({ path });
    await store.close();
  });

  it('opens read-only without writing, and refuses a missing file', async () => {
    await expect(openSqliteStore({ path, readonly: true })).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    const writer = await openSqliteStore({ path });
    await addEpisode(writer, { externalId: 'a' });
    await writer.close();

    const reader = await openSqliteStore({ path, readonly: true });
    expect(await reader.episodes.count()).toBe(1);
    expect(await reader.transaction(async (tx) => tx.episodes.count())).toBe(1);
    await expect(addEpisode(reader, { externalId: 'b' })).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    await reader.close();
  });

  it('fails clearly after close', async () => {
    const store = await openSqliteStore({ path });
    await store.close();
    await expect(store.episodes.count()).rejects.toMatchObject({ code: 'DB_ERROR' });
    await expect(store.transaction(async () => 1)).rejects.toMatchObject({ code: 'DB_ERROR' });
  });

  it('lets a transaction callback call the root store without deadlocking (it joins the transaction)', async () => {
    const store = await openSqliteStore({ path });
    await expect(
      store.transaction(async () => {
        await addEntity(store, 'via-root');
        expect(await store.entities.get('via-root')).not.toBeNull();
        await store.transaction(async (inner) => addEntity(inner, 'nested-via-root'));
        throw new Error('undo both');
      }),
    ).rejects.toThrow('undo both');
    expect(await store.entities.count()).toBe(0);
    await store.close();
  });

  it('lets an inner transaction the callback did not await finish inside the outer one', async () => {
    const store = await openSqliteStore({ path });
    let floating: Promise<unknown> = Promise.resolve();
    await store.transaction(async (tx) => {
      floating = tx.transaction(async (inner) => {
        await tick();
        await addEntity(inner, 'late');
      });
    });
    await floating;
    expect(await store.entities.get('late')).not.toBeNull();
    await store.close();
  });

  it('stems English words and folds diacritics in full-text search', async () => {
    const store = await openSqliteStore({ path });
    await addEpisode(store, {
      externalId: 'a',
      title: 'Café meetings',
      turns: [turn('user', 'I was running late to the café because of the meetings.')],
    });
    expect((await store.search.turns({ text: 'run' })).length).toBe(1);
    expect((await store.search.turns({ text: 'meeting cafe' })).length).toBe(1);
    expect((await store.search.episodes({ text: 'cafe' }))[0]?.snippet).toBe('«Café» meetings');
    await store.close();
  });

  it('deletes the personal benchmark questions whose evidence is in a deleted conversation', async () => {
    const store = await openSqliteStore({ path, clock: () => T0 });
    const kept = await addEpisode(store, { externalId: 'kept' });
    const gone = await addEpisode(store, { externalId: 'gone' });
    const q = (id: string, episodeIds: string[]) => ({
      id,
      kind: 'multi-session' as const,
      question: `How did ${id} change?`,
      answer: 'it changed',
      evidence: episodeIds.map((episodeId) => ({ episodeId, seq: 0, textHash: 'h' })),
      createdAt: T0,
      generator: 'templates',
    });
    await store.personalBench.replaceSet({
      id: 's1',
      generator: 'templates',
      createdAt: T0,
      meta: {},
      questions: [q('a', [kept]), q('b', [kept, gone]), q('c', [gone])],
    });
    await store.close();
    raw((db) => {
      db.pragma('foreign_keys = ON');
      db.prepare('DELETE FROM episodes WHERE id = ?').run(gone);
    });
    const reopened = await openSqliteStore({ path });
    expect((await reopened.personalBench.currentSet())?.questions.map((x) => x.id)).toEqual(['a']);
    expect(raw((db) => db.prepare('SELECT count(*) AS n FROM personal_bench_evidence').get())).toEqual({ n: 1 });
    await reopened.close();
  });

  it('works in memory', async () => {
    const store = await openSqliteStore({ path: ':memory:' });
    await addEpisode(store, { externalId: 'a' });
    expect((await store.stats()).episodes).toBe(1);
    expect(store.info().location).toBe(':memory:');
    await store.close();
  });
});
