import { describe, expect, it } from 'vitest';
import type { EntityListQuery } from '../../../src/ports/world-store.js';
import {
  DAY,
  T0,
  addEntity,
  addEpisode,
  entityInput,
  relationship,
  useFreshStore,
  type StoreFactory,
} from './fixtures.js';

export function describeEntities(factory: StoreFactory): void {
  describe('entities', () => {
    const store = useFreshStore(factory);

    it('inserts with defaults and reads back', async () => {
      const episodeId = await addEpisode(store(), { externalId: 'src' });
      const inserted = await store().entities.insert(
        entityInput('e1', {
          type: 'person',
          name: 'Ana Lima',
          normalizedName: 'ana lima',
          state: { role: 'founder', age: 30, active: true, note: null },
          firstSeen: T0,
          lastSeen: T0 + DAY,
          createdFrom: episodeId,
          recordedAt: T0 + 5,
          meta: { source: 'test' },
        }),
      );
      const expected = {
        id: 'e1',
        type: 'person',
        name: 'Ana Lima',
        aliases: [],
        state: { role: 'founder', age: 30, active: true, note: null },
        firstSeen: T0,
        lastSeen: T0 + DAY,
        importance: 0.5,
        tier: 'active',
        accessCount: 0,
        createdFrom: episodeId,
        recordedAt: T0 + 5,
        updatedAt: T0 + 5,
        version: 1,
        protected: false,
        meta: { source: 'test' },
      };
      expect(inserted).toEqual(expected);
      expect(await store().entities.get('e1')).toEqual(expected);
      expect(await store().entities.get('nope')).toBeNull();

      const custom = await addEntity(store(), 'e2', { importance: 0.9, protected: true, type: 'hobby' });
      expect(custom).toMatchObject({ importance: 0.9, protected: true, type: 'hobby' });
    });

    it('refuses a second entity with the same id', async () => {
      await addEntity(store(), 'e1');
      await expect(addEntity(store(), 'e1')).rejects.toMatchObject({ code: 'CONFLICT' });
    });

    it('updates only the given fields and bumps the version', async () => {
      await addEntity(store(), 'e1', { name: 'Pie', state: { stage: 'idea', lang: 'ts' } });
      const updated = await store().entities.update('e1', {
        state: { stage: 'launched' },
        lastSeen: T0 + DAY,
        importance: 0.8,
        tier: 'summarized',
        accessCount: 7,
        protected: true,
        meta: { pinned: true },
        updatedAt: T0 + DAY,
      });
      expect(updated).toMatchObject({
        name: 'Pie',
        type: 'project',
        state: { stage: 'launched' },
        firstSeen: T0,
        lastSeen: T0 + DAY,
        importance: 0.8,
        tier: 'summarized',
        accessCount: 7,
        protected: true,
        meta: { pinned: true },
        updatedAt: T0 + DAY,
        recordedAt: T0,
        version: 2,
      });
      const again = await store().entities.update('e1', { type: 'tool', updatedAt: T0 + 2 * DAY });
      expect(again).toMatchObject({ type: 'tool', state: { stage: 'launched' }, version: 3 });
      expect(await store().entities.get('e1')).toEqual(again);
    });

    it('supports optimistic locking and reports unknown ids', async () => {
      await addEntity(store(), 'e1');
      await store().entities.update('e1', { importance: 0.1, updatedAt: T0, expectedVersion: 1 });
      await expect(
        store().entities.update('e1', { importance: 0.2, updatedAt: T0, expectedVersion: 1 }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      expect((await store().entities.get('e1'))?.importance).toBe(0.1);
      await expect(store().entities.update('nope', { updatedAt: T0 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('finds entities by normalized name and by alias', async () => {
      await addEntity(store(), 'sra', { name: 'Science Research Academy', normalizedName: 'science research academy' });
      await addEntity(store(), 'other', { name: 'Other', normalizedName: 'other', importance: 0.9 });
      await store().entities.addAlias({ entityId: 'sra', alias: 'SRA', normalized: 'sra', recordedAt: T0 });
      await store().entities.addAlias({
        entityId: 'sra',
        alias: 'The Academy',
        normalized: 'academy',
        recordedAt: T0 + 1,
      });
      await store().entities.addAlias({ entityId: 'sra', alias: 'S.R.A.', normalized: 'sra', recordedAt: T0 + 2 });

      expect((await store().entities.findByKey('science research academy')).map((e) => e.id)).toEqual(['sra']);
      const byAlias = await store().entities.findByKey('sra');
      expect(byAlias.map((e) => e.id)).toEqual(['sra']);
      expect(byAlias[0]?.aliases).toEqual(['SRA', 'The Academy']);
      expect(await store().entities.findByKey('unknown')).toEqual([]);

      // A name and an alias can collide: both entities come back, most important first, each once.
      await store().entities.addAlias({ entityId: 'sra', alias: 'other', normalized: 'other', recordedAt: T0 });
      expect((await store().entities.findByKey('other')).map((e) => e.id)).toEqual(['other', 'sra']);

      await store().entities.update('sra', { name: 'SR Academy', normalizedName: 'sr academy', updatedAt: T0 });
      expect((await store().entities.findByKey('sr academy')).map((e) => e.id)).toEqual(['sra']);
      expect(await store().entities.findByKey('science research academy')).toEqual([]);
    });

    it('rejects an alias for an unknown entity', async () => {
      await expect(
        store().entities.addAlias({ entityId: 'nope', alias: 'x', normalized: 'x', recordedAt: T0 }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('lists with ordering, filters and paging, and counts', async () => {
      await addEntity(store(), 'b', { name: 'Beta', normalizedName: 'beta', importance: 0.9, lastSeen: T0 });
      await addEntity(store(), 'a', {
        name: 'Alpha',
        normalizedName: 'alpha',
        importance: 0.2,
        lastSeen: T0 + 2 * DAY,
      });
      await addEntity(store(), 'c', {
        name: 'Gamma',
        normalizedName: 'gamma',
        importance: 0.5,
        lastSeen: T0 + DAY,
        type: 'person',
      });
      await store().entities.update('a', { tier: 'archived', updatedAt: T0 });

      const ids = async (query?: EntityListQuery): Promise<string[]> =>
        (await store().entities.list(query)).map((e) => e.id);
      expect(await ids()).toEqual(['b', 'c', 'a']);
      expect(await ids({ orderBy: 'importance' })).toEqual(['b', 'c', 'a']);
      expect(await ids({ orderBy: 'lastSeen' })).toEqual(['a', 'c', 'b']);
      expect(await ids({ orderBy: 'name' })).toEqual(['a', 'b', 'c']);
      expect(await ids({ type: 'project' })).toEqual(['b', 'a']);
      expect(await ids({ tier: 'archived' })).toEqual(['a']);
      expect(await ids({ type: 'project', tier: 'active' })).toEqual(['b']);
      expect(await ids({ limit: 1, offset: 1 })).toEqual(['c']);

      // Briefs: the same entities in the same order, each the matching fields of the full entity.
      for (const query of [undefined, { orderBy: 'name' as const }, { type: 'project', limit: 1, offset: 1 }]) {
        const full = await store().entities.list(query);
        expect(await store().entities.listBriefs(query)).toEqual(
          full.map(({ id, type, name, importance, tier, firstSeen, lastSeen, updatedAt }) => ({
            id,
            type,
            name,
            importance,
            tier,
            firstSeen,
            lastSeen,
            updatedAt,
          })),
        );
      }

      expect(await store().entities.count()).toBe(3);
      expect(await store().entities.count({ type: 'project' })).toBe(2);
      expect(await store().entities.count({ tier: 'active' })).toBe(2);
    });

    it('lists the entities first seen in a time range with no edge of a type from them', async () => {
      for (const [id, day] of [
        ['p', 0],
        ['a', 1],
        ['b', 2],
        ['c', 3],
        ['m', 2],
        ['d', 9],
      ] as const) {
        await addEntity(store(), id, { firstSeen: T0 + day * DAY });
      }
      await store().upkeep.putRow({
        table: 'entities',
        id: 'm',
        row: { ...(await store().upkeep.getRow({ table: 'entities', id: 'm' })), merged_into: 'b' },
      });
      // b already has a DURING edge; c only has one pointing at it, and another type from it.
      await store().relationships.insert(relationship('b-p', 'b', 'p', { type: 'DURING' }));
      await store().relationships.insert(relationship('a-c', 'a', 'c', { type: 'DURING' }));
      await store().relationships.insert(relationship('c-p', 'c', 'p', { type: 'WORKS_ON' }));
      const ids = async (since: number, until: number | null): Promise<string[]> =>
        (await store().entities.withoutEdge({ edgeType: 'DURING', since, until })).map((e) => e.id);
      expect(await ids(T0 + DAY, T0 + 3 * DAY)).toEqual(['c']);
      expect(await ids(T0, T0 + 3 * DAY)).toEqual(['p', 'c']);
      expect(await ids(T0 + 2 * DAY, null)).toEqual(['c', 'd']);
      expect(await ids(T0 + 4 * DAY, T0 + 8 * DAY)).toEqual([]);
      expect(await store().entities.withoutEdge({ edgeType: 'WORKS_ON', since: T0, until: null })).toMatchObject([
        { id: 'p', firstSeen: T0 },
        { id: 'a' },
        { id: 'b' },
        { id: 'd', type: 'project', name: 'd' },
      ]);
    });

    it('increments access counts without bumping the version', async () => {
      await addEntity(store(), 'a');
      await addEntity(store(), 'b');
      await store().entities.incrementAccess(['a', 'b', 'a', 'unknown']);
      expect(await store().entities.get('a')).toMatchObject({ accessCount: 2, version: 1 });
      expect(await store().entities.get('b')).toMatchObject({ accessCount: 1, version: 1 });
    });
  });
}
