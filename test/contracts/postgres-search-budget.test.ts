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
