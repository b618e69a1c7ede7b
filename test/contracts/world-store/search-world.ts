import { describe, expect, it } from 'vitest';
import { T0, DAY, addEntity, transition, useFreshStore, type StoreFactory } from './fixtures.js';

/** Query text that is FTS5 syntax when passed through unescaped; each must be treated as plain words. */
const HOSTILE = [
  '"pivot',
  'pivot"',
  '"" pivot',
  'pivot*',
  '*',
  'NEAR(pivot launch, 1)',
  'NEAR',
  '-pivot',
  'pivot - launch',
  'summary:pivot',
  '^pivot',
  '(pivot OR',
  "'; DROP TABLE transitions; --",
  'pivot NOT launch',
  '{summary}: pivot',
];

/** Full-text search over the world model: entity names, aliases and state values; transition summaries. */
export function describeWorldSearch(factory: StoreFactory): void {
  describe('entity search', () => {
    const store = useFreshStore(factory);
    const ids = async (text: string, includeArchived?: boolean): Promise<string[]> =>
      (await store().search.entities({ text, includeArchived })).map((h) => h.entityId);

    it('finds entities by name, fills the hit and marks the match', async () => {
      await addEntity(store(), 'lis', { name: 'Lisbon', type: 'place' });
      await addEntity(store(), 'other', { name: 'Porto' });
      const hits = await store().search.entities({ text: 'lisbon' });
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({ kind: 'entity', entityId: 'lis', name: 'Lisbon', type: 'place' });
      expect(hits[0]?.snippet).toContain('«Lisbon»');
      expect(typeof hits[0]?.score).toBe('number');
      const [custom] = await store().search.entities({ text: 'lisbon', highlight: ['<b>', '</b>'] });
      expect(custom?.snippet).toContain('<b>Lisbon</b>');
    });

    it('finds aliases added after the entity was created', async () => {
      await addEntity(store(), 'sra', { name: 'Science Research Academy' });
      expect(await ids('mentorship')).toEqual([]);
      await store().entities.addAlias({
        entityId: 'sra',
        alias: 'Mentorship Lab',
        normalized: 'mentorship lab',
        recordedAt: T0,
      });
      await store().entities.addAlias({ entityId: 'sra', alias: 'SRA', normalized: 'sra', recordedAt: T0 + 1 });
      expect(await ids('mentorship')).toEqual(['sra']);
      expect(await ids('sra')).toEqual(['sra']);
      expect(await ids('science lab')).toEqual(['sra']); // name and alias words together
      const [hit] = await store().search.entities({ text: 'sra' });
      expect(hit?.snippet).toContain('«SRA»');
    });

    it('follows state updates and renames: old values and old names are no longer found', async () => {
      await addEntity(store(), 'pie', { name: 'Personal Engine', state: { stage: 'prototype', lang: 'typescript' } });
      expect(await ids('prototype')).toEqual(['pie']);
      expect(await ids('personal typescript')).toEqual(['pie']);

      await store().entities.update('pie', { state: { stage: 'launched', users: 42 }, updatedAt: T0 + DAY });
      expect(await ids('prototype')).toEqual([]);
      expect(await ids('typescript')).toEqual([]);
      expect(await ids('launched')).toEqual(['pie']);
      expect(await ids('42')).toEqual(['pie']);

      await store().entities.update('pie', { name: 'Intelligence Engine', updatedAt: T0 + 2 * DAY });
      expect(await ids('personal')).toEqual([]);
      expect(await ids('intelligence')).toEqual(['pie']);
      expect(await ids('launched')).toEqual(['pie']); // the state is still indexed after a rename

      // Updates that leave name and state alone keep the entity findable.
      await store().entities.update('pie', { importance: 0.9, updatedAt: T0 + 3 * DAY });
      expect(await ids('intelligence')).toEqual(['pie']);
    });

    it('ranks a match in the name above one in an alias above one in the state', async () => {
      await addEntity(store(), 'in-state', { name: 'Weekend trip', state: { city: 'Porto' } });
      await addEntity(store(), 'in-name', { name: 'Porto' });
      await addEntity(store(), 'in-alias', { name: 'Second city' });
      await store().entities.addAlias({ entityId: 'in-alias', alias: 'Porto', normalized: 'porto', recordedAt: T0 });
      expect(await ids('porto')).toEqual(['in-name', 'in-alias', 'in-state']);
    });

    it('leaves out archived entities unless asked, before applying the limit', async () => {
      await addEntity(store(), 'old', { name: 'Garden project' });
      await addEntity(store(), 'new', { name: 'Garden shed' });
      await store().entities.update('old', { tier: 'archived', updatedAt: T0 });
      expect(await ids('garden')).toEqual(['new']);
      expect((await ids('garden', true)).sort()).toEqual(['new', 'old']);
      // Only the archived entity has both words: the strict pass finds nothing shown, so any word counts.
      expect(await ids('garden project')).toEqual(['new']);
      expect(await ids('garden project', true)).toEqual(['old']);
      await store().entities.update('new', { tier: 'archived', updatedAt: T0 });
      expect(await store().search.entities({ text: 'garden', limit: 1 })).toEqual([]);
    });

    it('treats hostile text as words and validates the query', async () => {
      await addEntity(store(), 'p', { name: 'Pivot launch' });
      for (const text of HOSTILE) await expect(ids(text), text).resolves.toBeInstanceOf(Array);
      expect(await ids('"pivot')).toEqual(['p']);
      expect(await ids('-pivot')).toEqual(['p']);
      for (const text of ['', '  ']) {
        await expect(store().search.entities({ text })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      }
      for (const limit of [0, 1001, 2.5]) {
        await expect(store().search.entities({ text: 'pivot', limit })).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
        });
      }
    });
  });

  describe('transition search', () => {
    const store = useFreshStore(factory);
    const ids = async (text: string): Promise<string[]> =>
      (await store().search.transitions({ text })).map((h) => h.transitionId);

    async function seed(): Promise<void> {
      await addEntity(store(), 'sra');
      await addEntity(store(), 'pie');
      const rows = [
        transition('both', 'sra', { summary: 'Pivot from mentoring to a research curriculum before launch' }),
        transition('pivot', 'sra', { summary: 'Another pivot, this time to paid workshops', eventTime: T0 + DAY }),
        transition('gql', 'pie', { summary: 'Adopted GraphQL for the public API', eventTime: T0 + 2 * DAY }),
        transition('near', 'pie', { summary: 'Moved near the office', eventTime: T0 + 3 * DAY }),
      ];
      for (const row of rows) await store().transitions.insert(row);
    }

    it('finds transitions by summary with their entity and time', async () => {
      await seed();
      const hits = await store().search.transitions({ text: 'workshops' });
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({
        kind: 'transition',
        transitionId: 'pivot',
        entityId: 'sra',
        eventTime: T0 + DAY,
      });
      expect(hits[0]?.snippet).toContain('«workshops»');
      expect(await ids('curriculum launch')).toEqual(['both']);
      expect((await ids('pivot')).sort()).toEqual(['both', 'pivot']);
      expect(await ids('pivot zeppelin')).toHaveLength(2); // no hit has both words: any word counts
      expect(await ids('zeppelin')).toEqual([]);
      expect(await store().search.transitions({ text: 'pivot', limit: 1 })).toHaveLength(1);
    });

    it('treats quotes, stars, NEAR, NOT and minus signs as plain text', async () => {
      await seed();
      for (const text of HOSTILE) await expect(ids(text), text).resolves.toBeInstanceOf(Array);
      expect((await ids('"pivot')).sort()).toEqual(['both', 'pivot']);
      expect((await ids('pivot"')).sort()).toEqual(['both', 'pivot']);
      // A prefix query would find GraphQL; as a word, graph* is just "graph".
      expect(await ids('graph*')).toEqual([]);
      expect(await ids('graphql*')).toEqual(['gql']);
      // NOT as an operator would exclude the summary with "launch"; dropped, both words are required.
      expect(await ids('pivot NOT launch')).toEqual(['both']);
      // A leading minus is no negation; "pivot - launch" asks for both words.
      expect((await ids('-pivot')).sort()).toEqual(['both', 'pivot']);
      expect(await ids('pivot - launch')).toEqual(['both']);
      // NEAR(...) is no proximity group: "NEAR(moved" is one literal phrase, found nowhere; "office)" finds one.
      expect(await ids('NEAR(moved office)')).toEqual(['near']);
      // A column filter would find the workshops; the word "summary:workshops" is the phrase "summary workshops".
      expect(await ids('summary:workshops')).toEqual([]);
      expect(await ids('*')).toEqual([]);
      await expect(store().search.transitions({ text: ' ' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });
  });
}
