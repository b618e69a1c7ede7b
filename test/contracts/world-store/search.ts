import { describe, expect, it } from 'vitest';
import { DAY, T0, addEntity, addEpisode, transition, turn, useFreshStore, type StoreFactory } from './fixtures.js';

const HOSTILE = [
  '"foo" AND (bar',
  'c++ -x *',
  'AND',
  'OR NOT',
  'NEAR(graph memory, 2)',
  'title:graph',
  'text : graph',
  '"',
  '""',
  '(',
  ')',
  '*',
  '-',
  '^graph',
  'graph*',
  "'; DROP TABLE turns; --",
  '{text title}: graph',
  'graph + memory - search',
  '🚀 émoji façade',
  '%_\\',
];

export function describeSearch(factory: StoreFactory): void {
  describe('search', () => {
    const store = useFreshStore(factory);

    async function seed(): Promise<void> {
      await addEpisode(store(), {
        externalId: 'dense',
        title: 'Graph databases',
        createdAt: T0,
        turns: [
          turn('user', 'What is a graph database?'),
          turn('assistant', 'A graph database stores a graph of nodes.'),
        ],
      });
      await addEpisode(store(), {
        externalId: 'sparse',
        title: 'Weekend plans',
        createdAt: T0 + DAY,
        turns: [
          turn('user', 'We went hiking near the lake, then cooked dinner, watched a film and talked for hours'),
          turn('assistant', 'Sounds like a lovely weekend; the film mentioned a graph once among many other things.', {
            time: T0 + DAY + 60_000,
          }),
        ],
      });
      for (const name of ['pasta', 'bread', 'soup']) {
        await addEpisode(store(), {
          externalId: name,
          title: `Cooking ${name}`,
          turns: [turn('user', `How do I cook ${name} at home?`), turn('assistant', `Cook the ${name} slowly.`)],
        });
      }
    }

    it('splits words at curly quotes, dashes and emoji, and keeps accented letters', async () => {
      await addEpisode(store(), {
        externalId: 'punct',
        title: 'Reading “Harbour”',
        createdAt: T0,
        turns: [turn('user', 'I finished ‘Dune’ at last — work–life balance restored, done🎉 with the café')],
      });
      await addEntity(store(), 'book', { name: '“Dune Messiah”', type: 'concept' });
      await store().transitions.insert(transition('t', 'book', { summary: 'Started reading “Dune Messiah”' }));
      for (const word of ['Dune', 'work', 'life', 'done', 'café', 'balance']) {
        expect((await store().search.turns({ text: word })).length, word).toBe(1);
      }
      expect((await store().search.episodes({ text: 'Harbour' })).length).toBe(1);
      expect((await store().search.entities({ text: 'Messiah' })).map((h) => h.entityId)).toEqual(['book']);
      expect((await store().search.transitions({ text: 'Messiah' })).map((h) => h.transitionId)).toEqual(['t']);
    });

    it('ranks the better BM25 match first and fills the hit fields', async () => {
      await seed();
      const hits = await store().search.turns({ text: 'graph' });
      expect(hits.length).toBe(3);
      expect(hits[0]).toMatchObject({ kind: 'turn', episodeId: 'chatgpt:dense', seq: 1, role: 'assistant' });
      expect(hits[hits.length - 1]?.episodeId).toBe('chatgpt:sparse');
      expect(hits[hits.length - 1]).toMatchObject({
        episodeTitle: 'Weekend plans',
        episodeTime: T0 + DAY,
        seq: 1,
        role: 'assistant',
        time: T0 + DAY + 60_000,
      });
      for (const hit of hits) expect(typeof hit.score).toBe('number');
    });

    it('wraps matched terms in the highlight markers', async () => {
      await seed();
      const [hit] = await store().search.turns({ text: 'lake' });
      expect(hit?.snippet).toContain('«lake»');
      const [custom] = await store().search.turns({ text: 'lake', highlight: ['<b>', '</b>'] });
      expect(custom?.snippet).toContain('<b>lake</b>');
      expect(custom?.snippet).not.toContain('«');
    });

    it('prefers hits with every word and falls back to any word', async () => {
      await seed();
      const strict = await store().search.turns({ text: 'cook pasta' });
      expect(strict.length).toBeGreaterThan(0);
      for (const hit of strict) expect(hit.episodeId).toBe('chatgpt:pasta');

      const loose = await store().search.turns({ text: 'pasta zeppelin' });
      expect(loose.map((h) => h.episodeId)).toContain('chatgpt:pasta');
      expect(await store().search.turns({ text: 'zeppelin' })).toEqual([]);
    });

    it('with three or more words and no hit having all, prefers hits with at least two', async () => {
      await seed();
      // No turn has all of "cook", "pasta", "zeppelin"; the pasta turns have two of them, the other cooking turns one.
      const hits = await store().search.turns({ text: 'cook pasta zeppelin' });
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) expect(hit.episodeId).toBe('chatgpt:pasta');
      // When no hit has two of the words, any word counts.
      const any = await store().search.turns({ text: 'pasta zeppelin airship' });
      expect(any.map((h) => h.episodeId)).toEqual(['chatgpt:pasta', 'chatgpt:pasta']);
    });

    it('respects the limit', async () => {
      await seed();
      expect((await store().search.turns({ text: 'cook', limit: 2 })).length).toBe(2);
      expect((await store().search.episodes({ text: 'cooking', limit: 1 })).length).toBe(1);
    });

    it('treats hostile query strings as plain words', async () => {
      await seed();
      for (const text of HOSTILE) {
        await expect(store().search.turns({ text }), text).resolves.toBeInstanceOf(Array);
        await expect(store().search.episodes({ text }), text).resolves.toBeInstanceOf(Array);
      }
      const hits = await store().search.turns({ text: '"graph" AND (database' });
      expect(hits.map((h) => h.episodeId)).toContain('chatgpt:dense');
    });

    it('rejects empty and whitespace-only queries', async () => {
      for (const text of ['', '   ', '\n\t ']) {
        await expect(store().search.turns({ text })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
        await expect(store().search.episodes({ text })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      }
    });

    it('searches episode titles and summaries', async () => {
      await seed();
      await addEpisode(store(), { externalId: 'trip', title: 'Trip to Lisbon', createdAt: T0 + 2 * DAY });
      await addEpisode(store(), { externalId: 'flat', title: 'Housing', createdAt: T0 + 3 * DAY });
      await store().episodes.annotate({ id: 'chatgpt:flat', summary: 'We compared apartments in Lisbon and Porto.' });

      const hits = await store().search.episodes({ text: 'lisbon' });
      expect(hits.map((h) => h.episodeId).sort()).toEqual(['chatgpt:flat', 'chatgpt:trip']);
      const flat = hits.find((h) => h.episodeId === 'chatgpt:flat');
      expect(flat).toMatchObject({ kind: 'episode', title: 'Housing', time: T0 + 3 * DAY });
      expect(flat?.snippet).toContain('«Lisbon»');
      expect((await store().search.episodes({ text: 'graph databases' }))[0]?.episodeId).toBe('chatgpt:dense');
    });

    it('reflects updated episodes: old text is no longer found', async () => {
      await addEpisode(
        store(),
        { externalId: 'fruit', title: 'Banana bread', turns: [turn('user', 'my banana recipe')] },
        'v1',
      );
      expect((await store().search.turns({ text: 'banana' })).length).toBe(1);

      await addEpisode(
        store(),
        { externalId: 'fruit', title: 'Mango lassi', turns: [turn('user', 'a mango recipe')] },
        'v2',
      );
      expect(await store().search.turns({ text: 'banana' })).toEqual([]);
      expect(await store().search.episodes({ text: 'banana' })).toEqual([]);
      expect((await store().search.turns({ text: 'mango' })).map((h) => h.episodeTitle)).toEqual(['Mango lassi']);
      expect((await store().search.episodes({ text: 'mango' })).map((h) => h.episodeId)).toEqual(['chatgpt:fruit']);

      await store().episodes.annotate({ id: 'chatgpt:fruit', summary: 'Yogurt drink' });
      expect((await store().search.episodes({ text: 'yogurt' })).length).toBe(1);
      await store().episodes.annotate({ id: 'chatgpt:fruit', summary: null });
      expect(await store().search.episodes({ text: 'yogurt' })).toEqual([]);
    });
  });
}
