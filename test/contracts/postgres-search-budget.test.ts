import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/adapters/store/postgres/index.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { RANK_BUDGET } from '../../src/adapters/store/sqlite/search.js';
import { T0, addEpisode, turn } from './world-store/fixtures.js';

/**
 * PostgreSQL search in a large, analyzed table applies the SQLite search's budget for common words: a rare word's
 * old turn is still found first, a word in most turns is ranked among the newest RANK_BUDGET matches only, and the
 * results agree with the full ranking where the budget cannot matter.
 */
describe('PostgreSQL search budget (PGlite)', () => {
  let db: PGlite;
  let store: WorldStore;
  const EPISODES = 60;
  const TURNS = 100; // 6,000 turns: a large index

  beforeAll(async () => {
    db = new PGlite();
    store = await openPostgresStore({ pglite: db, schema: 'budget', clock: () => T0 });
    for (let e = 0; e < EPISODES; e++) {
      const turns = Array.from({ length: TURNS }, (_v, i) =>
        turn(i % 2 === 0 ? 'user' : 'assistant', `weekly notes number ${e * TURNS + i} about the garden`),
      );
      // The oldest conversation holds the one rare word.
      if (e === 0) turns[3] = turn('user', 'weekly notes about the xylophone recital');
      await addEpisode(store, { externalId: `ep-${e}`, createdAt: T0 + e * 86_400_000, turns });
    }
    await db.exec('ANALYZE budget.turns');
  }, 180_000);
  afterAll(async () => {
    await store.close();
    await db.close();
  });

  it('finds the rare word in the oldest conversation first, beside a word every turn has', async () => {
    const hits = await store.search.turns({ text: 'weekly xylophone', limit: 5 });
    expect(hits[0]).toMatchObject({ episodeId: expect.stringContaining('ep-0'), seq: 3 });
  });

  it('ranks a word in every turn among the newest matches only', async () => {
    const hits = await store.search.turns({ text: 'garden', limit: 20 });
    expect(hits).toHaveLength(20);
    // Every hit is among the newest RANK_BUDGET turns (the last RANK_BUDGET / TURNS conversations).
    const oldestAllowed = EPISODES - RANK_BUDGET / TURNS;
    for (const h of hits) expect(Number(h.episodeId.split('ep-')[1])).toBeGreaterThanOrEqual(oldestAllowed);
  });

  it('any-word search leaves out a word in over 5 % of the turns', async () => {
    // "garden" is in nearly every turn, "recital" in one: the any-word tier searches "recital" alone.
    const hits = await store.search.turns({ text: 'garden recital piano', limit: 10, mode: 'fill' });
    expect(hits[0]).toMatchObject({ episodeId: expect.stringContaining('ep-0'), seq: 3 });
  });
});

/**
 * The budget's statistics are kept for a while (search-stats.ts) and read again after `compact`, whose VACUUM
 * updates the planner's row counts: a store that kept "never analyzed" would go on ranking every match.
 */
describe('PostgreSQL search statistics after compact (PGlite)', () => {
  let db: PGlite;
  let store: WorldStore;

  beforeAll(async () => {
    db = new PGlite();
    store = await openPostgresStore({ pglite: db, schema: 'stats', clock: () => T0 });
    const episodeId = await addEpisode(store, { externalId: 'ep-0', createdAt: T0, turns: [turn('user', 'hello')] });
    // 6,000 turns with one word (far more than RANK_BUDGET), oldest first, written in one statement.
    await db.query(
      `INSERT INTO stats.turns (episode_id, seq, role, text)
       SELECT $1, g, 'user', 'zephyr ' || g FROM generate_series(1, 6000) g`,
      [episodeId],
    );
  }, 120_000);
  afterAll(async () => {
    await store.close();
    await db.close();
  });

  it('ranks every match before the table is analyzed, and only the newest once compact has read the new counts', async () => {
    const seqs = async () => (await store.search.turns({ text: 'zephyr', limit: 3 })).map((h) => h.seq);
    // Never analyzed: every match is ranked; equal ranks, so the first rows in (episode, seq) order.
    expect(await seqs()).toEqual([1, 2, 3]);
    await db.exec('ANALYZE stats.turns');
    await store.forget.compact();
    // Now the word is in every row of a large table: only the newest RANK_BUDGET matches are ranked.
    expect(await seqs()).toEqual([6001 - RANK_BUDGET, 6002 - RANK_BUDGET, 6003 - RANK_BUDGET]);
  });
});
