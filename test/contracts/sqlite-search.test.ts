import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { T0, addEpisode, turn } from './world-store/fixtures.js';

/** SQLite-specific: in an index of 5,000 rows or more, words found in over 5% of rows are not ranked alone. */
describe('sqlite search: common words in a large index', () => {
  let dir = '';
  let store: WorldStore;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pie-search-'));
    store = await openSqliteStore({ path: join(dir, 'pie.db'), clock: () => T0 });
    await store.transaction(async (tx) => {
      for (let e = 0; e < 60; e++) {
        const turns = Array.from({ length: 100 }, (_, i) =>
          turn('user', e === 7 && i === 3 ? 'a common word and a rare one' : `common filler number ${e * 100 + i}`),
        );
        await addEpisode(tx, { externalId: `e${e}`, turns });
      }
    });
  }, 60_000);
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('fill mode adds rare words only after the two-word tier, never a word in every row', async () => {
    const hits = await store.search.turns({ text: 'common rare zebra', mode: 'fill', limit: 20 });
    expect(hits.map((h) => [h.episodeId, h.seq])).toEqual([['chatgpt:e7', 3]]);
  });

  it('best mode with only common words finds nothing rather than ranking every row', async () => {
    expect(await store.search.turns({ text: 'common zebra' })).toEqual([]);
    // A query with every word present still matches as usual.
    expect((await store.search.turns({ text: 'common filler', limit: 5 })).length).toBe(5);
  });
});
