import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { RANK_BUDGET } from '../../src/adapters/store/sqlite/search.js';
import type { SearchQuery, WorldStore } from '../../src/ports/world-store.js';
import { T0, addEpisode, turn } from './world-store/fixtures.js';

/** Two rows that differ from the 6,000 filler turns: an early rare pair (episode 2) and a rare word (episode 7). */
function special(episode: number, index: number): string | null {
  if (episode === 7 && index === 3) return 'a common word and a rare one';
  if (episode === 2 && index === 5) return 'walrus filler';
  return null;
}

const episodeNumber = (h: { episodeId: string }): number => Number(h.episodeId.replace('chatgpt:e', ''));

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
          turn('user', special(e, i) ?? `common filler number ${e * 100 + i}`),
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

  it(`ranks only the newest ${RANK_BUDGET} matches of a word found in more rows than that`, async () => {
    const hits = await store.search.turns({ text: 'filler', limit: 10 });
    expect(hits).toHaveLength(10);
    // 6,000 rows have the word, turns are stored episode by episode: the newest 3,000 are episodes 30 to 59.
    for (const h of hits) expect(episodeNumber(h)).toBeGreaterThanOrEqual(30);
  });

  it('never loses an old row for a rare word when the rest of the match is bounded', async () => {
    // No row has all three words; the two-word tier matches nearly every row, so it is bounded, but the one old
    // row with the rare word comes first, and the newest rows fill the rest.
    const hits = await store.search.turns({ text: 'filler number walrus', mode: 'fill', limit: 10 });
    expect(hits[0]).toMatchObject({ episodeId: 'chatgpt:e2', seq: 5 });
    expect(hits).toHaveLength(10);
    for (const h of hits.slice(1)) expect(episodeNumber(h)).toBeGreaterThanOrEqual(30);
  });

  it('without snippets finds the same hits in the same order, bounded or not, with empty snippets', async () => {
    for (const query of [
      { text: 'filler number walrus', mode: 'fill' as const, limit: 10 },
      { text: 'filler', limit: 10 },
      { text: 'common rare zebra', mode: 'fill' as const, limit: 20 },
    ]) {
      const withSnippets = await store.search.turns(query);
      const without = await store.search.turns({ ...query, snippets: false });
      expect(without).toEqual(withSnippets.map((h) => ({ ...h, snippet: '' })));
      expect(withSnippets.every((h) => h.snippet !== '')).toBe(true);
    }
  });

  it('best mode with only common words finds nothing rather than ranking every row', async () => {
    expect(await store.search.turns({ text: 'common zebra' })).toEqual([]);
    // A query with every word present still matches as usual.
    expect((await store.search.turns({ text: 'common filler', limit: 5 })).length).toBe(5);
  });

  it('finds the same turns whatever was searched before: a ranking serves a later search of the same words', async () => {
    // Inside a transaction nothing is remembered: each search there ranks on its own, as the reference.
    const alone = (query: SearchQuery) => store.transaction((tx) => tx.search.turns(query));
    const queries: SearchQuery[] = [
      // Many rows tie on BM25 here (the same words, the same length): the first n of a deeper ranking are still the n
      // the search ranks alone.
      ...[10, 400, 3, 60, 200, 1000].map((limit) => ({ text: 'filler', limit })),
      ...[60, 200, 20, 400].map((limit) => ({ text: 'filler number walrus', mode: 'fill' as const, limit })),
      { text: 'common rare zebra', mode: 'fill', limit: 20, snippets: false },
      { text: 'common rare zebra', mode: 'fill', limit: 20, highlight: ['<', '>'] },
    ];
    for (const query of queries) {
      for (const snippets of [true, false]) {
        const q = { snippets, ...query };
        expect(await store.search.turns(q)).toEqual(await alone(q));
      }
    }
  });

  // Writes to the shared index: kept last.
  it('sees a turn written after a search of its words', async () => {
    expect(await store.search.turns({ text: 'pelican filler', limit: 5 })).toEqual([]);
    await store.transaction(async (tx) => {
      await addEpisode(tx, { externalId: 'p1', turns: [turn('user', 'a pelican filler')] });
    });
    const hits = await store.search.turns({ text: 'pelican filler', limit: 5 });
    expect(hits.map((h) => h.episodeId)).toEqual(['chatgpt:p1']);
  });

  it('sees a turn another connection (another process, as `pie serve` beside `pie ingest`) wrote after a search', async () => {
    expect(await store.search.turns({ text: 'heron filler', limit: 5 })).toEqual([]);
    const other = await openSqliteStore({ path: join(dir, 'pie.db'), clock: () => T0 });
    try {
      await other.transaction(async (tx) => {
        await addEpisode(tx, { externalId: 'h1', turns: [turn('user', 'a heron filler')] });
      });
    } finally {
      await other.close();
    }
    const hits = await store.search.turns({ text: 'heron filler', limit: 5 });
    expect(hits.map((h) => h.episodeId)).toEqual(['chatgpt:h1']);
  });

  it('counts words again once the index has grown: a word that became common is treated as common', async () => {
    expect(await store.search.turns({ text: 'walrus zebra', mode: 'fill' })).toHaveLength(1);
    await store.transaction(async (tx) => {
      for (let e = 0; e < 4; e++) {
        await addEpisode(tx, { externalId: `w${e}`, turns: Array.from({ length: 100 }, () => turn('user', 'walrus')) });
      }
    });
    // 401 of 6,400 rows now have "walrus" (over 5%): alone in the any-word tier it is no longer ranked.
    expect(await store.search.turns({ text: 'walrus zebra', mode: 'fill' })).toEqual([]);
  });
});
