import { describe, expect, it } from 'vitest';
import type { EntityListQuery, EpisodeListQuery, TransitionListQuery } from '../../../src/ports/world-store.js';
import { DAY, T0, addEntity, addEpisode, transition, useFreshStore, type StoreFactory } from './fixtures.js';

/** Lookups by many ids, newest-first listing and the entity/transition filters that retrieval builds on. */
export function describeQueries(factory: StoreFactory): void {
  describe('episode queries', () => {
    const store = useFreshStore(factory);

    it('gets many episodes in the order asked, leaving out unknown ids and repeats', async () => {
      const a = await addEpisode(store(), { externalId: 'a', title: 'First' });
      const b = await addEpisode(store(), { externalId: 'b', title: 'Second', createdAt: T0 - DAY });
      const c = await addEpisode(store(), { externalId: 'c' });

      const many = await store().episodes.getMany([c, 'nope', a, c, b]);
      expect(many.map((e) => e.id)).toEqual([c, a, b]);
      expect(many[1]).toEqual(await store().episodes.get(a));
      expect(await store().episodes.getMany([])).toEqual([]);
      expect(await store().episodes.getMany(['nope'])).toEqual([]);
    });

    it('lists newest first with ties broken by id descending, with filters and paging', async () => {
      await addEpisode(store(), { externalId: 'old', createdAt: T0 });
      await addEpisode(store(), { externalId: 'x', createdAt: T0 + DAY });
      await addEpisode(store(), { externalId: 'y', createdAt: T0 + DAY });
      await addEpisode(store(), { externalId: 'new', createdAt: T0 + 2 * DAY });
      const ids = async (query: EpisodeListQuery = {}): Promise<string[]> =>
        (await store().episodes.list(query)).map((e) => e.id.replace('chatgpt:', ''));

      expect(await ids()).toEqual(['old', 'x', 'y', 'new']);
      expect(await ids({ order: 'asc' })).toEqual(['old', 'x', 'y', 'new']);
      expect(await ids({ order: 'desc' })).toEqual(['new', 'y', 'x', 'old']);
      expect(await ids({ order: 'desc', limit: 2 })).toEqual(['new', 'y']);
      expect(await ids({ order: 'desc', limit: 2, offset: 2 })).toEqual(['x', 'old']);
      expect(await ids({ order: 'desc', since: T0 + DAY, until: T0 + 2 * DAY })).toEqual(['y', 'x']);
      expect(await store().episodes.count({ order: 'desc', since: T0 + DAY })).toBe(3);
    });
  });

  describe('entity queries', () => {
    const store = useFreshStore(factory);

    it('gets many entities in the order asked, with their aliases', async () => {
      await addEntity(store(), 'a');
      await addEntity(store(), 'b', { name: 'Bee' });
      await store().entities.addAlias({ entityId: 'b', alias: 'B.', normalized: 'b', recordedAt: T0 });

      const many = await store().entities.getMany(['b', 'ghost', 'a', 'b']);
      expect(many.map((e) => e.id)).toEqual(['b', 'a']);
      expect(many[0]).toMatchObject({ name: 'Bee', aliases: ['B.'] });
      expect(many[0]).toEqual(await store().entities.get('b'));
      expect(await store().entities.getMany([])).toEqual([]);
    });

    it('filters by first sighting (inclusive) and leaves out archived entities, in list and count', async () => {
      await addEntity(store(), 'early', { firstSeen: T0 - DAY, importance: 0.9 });
      await addEntity(store(), 'exact', { firstSeen: T0, importance: 0.5 });
      await addEntity(store(), 'late', { firstSeen: T0 + 1, importance: 0.7 });
      await addEntity(store(), 'gone', { firstSeen: T0 - 2 * DAY, importance: 0.3, type: 'person' });
      await store().entities.update('gone', { tier: 'archived', updatedAt: T0 });
      const ids = async (query: EntityListQuery): Promise<string[]> =>
        (await store().entities.list(query)).map((e) => e.id);

      expect(await ids({ firstSeenAtOrBefore: T0 })).toEqual(['early', 'exact', 'gone']);
      expect(await ids({ firstSeenAtOrBefore: T0 - 1 })).toEqual(['early', 'gone']);
      expect(await ids({ excludeArchived: true })).toEqual(['early', 'late', 'exact']);
      expect(await ids({ excludeArchived: false })).toEqual(['early', 'late', 'exact', 'gone']);
      expect(await ids({ firstSeenAtOrBefore: T0, excludeArchived: true, orderBy: 'name' })).toEqual([
        'early',
        'exact',
      ]);
      expect(await ids({ firstSeenAtOrBefore: T0, type: 'person' })).toEqual(['gone']);

      expect(await store().entities.count({ firstSeenAtOrBefore: T0 })).toBe(3);
      expect(await store().entities.count({ excludeArchived: true })).toBe(3);
      expect(await store().entities.count({ firstSeenAtOrBefore: T0, excludeArchived: true })).toBe(2);
      expect(await store().entities.count({ firstSeenAtOrBefore: T0 - 3 * DAY })).toBe(0);
    });
  });

  describe('transition queries', () => {
    const store = useFreshStore(factory);
    const ids = async (query?: TransitionListQuery): Promise<string[]> =>
      (await store().transitions.list(query)).map((t) => t.id);

    async function seed(): Promise<void> {
      for (const id of ['p', 'q', 'r']) await addEntity(store(), id);
      const rows = [
        transition('p1', 'p', { eventTime: T0 }),
        transition('q1', 'q', { eventTime: T0 + DAY, kind: 'contradiction' }),
        transition('p2', 'p', { eventTime: T0 + DAY, kind: 'contradiction', recordedAt: T0 + 5 }),
        transition('r1', 'r', { eventTime: T0 + 2 * DAY, kind: 'contradiction' }),
        transition('pres', 'p', { eventTime: T0 + 3 * DAY, kind: 'resolution' }),
        transition('q2', 'q', { eventTime: T0 + 3 * DAY }),
      ];
      for (const row of rows) await store().transitions.insert(row);
      await store().transitions.markResolved({ id: 'p2', resolvedBy: 'pres' });
    }

    it('filters by entities; an empty list matches nothing', async () => {
      await seed();
      expect(await ids({ entityIds: ['p'] })).toEqual(['p1', 'p2', 'pres']);
      expect(await ids({ entityIds: ['q', 'r', 'ghost'] })).toEqual(['q1', 'r1', 'q2']);
      expect(await ids({ entityIds: ['q', 'p'], since: T0 + DAY, until: T0 + 3 * DAY })).toEqual(['q1', 'p2']);
      expect(await ids({ entityIds: [] })).toEqual([]);
      expect(await ids({ entityIds: ['ghost'] })).toEqual([]);
    });

    it('takes the first rows in order across several entities (listed twice or not), with a limit, either way', async () => {
      await seed();
      expect(await ids({ entityIds: ['q', 'p', 'p'], order: 'desc', limit: 3 })).toEqual(['q2', 'pres', 'p2']);
      expect(await ids({ entityIds: ['p', 'q'], limit: 2 })).toEqual(['p1', 'q1']);
      expect(await ids({ entityIds: ['q', 'p'], kind: 'contradiction', order: 'desc', limit: 1 })).toEqual(['p2']);
      expect(await ids({ entityIds: ['r', 'p'], unresolved: true })).toEqual(['r1']);
      expect(await ids({ entityIds: ['p', 'q'], since: T0 + DAY, order: 'desc' })).toEqual(['q2', 'pres', 'p2', 'q1']);
    });

    it('lists every transition as a step, in list order with the fields a lifecycle needs', async () => {
      await seed();
      expect(await store().transitions.listSteps()).toEqual(
        (await store().transitions.list()).map(({ entityId, kind, fromState, toState, eventTime, episodeId }) => ({
          entityId,
          kind,
          fromState,
          toState,
          eventTime,
          episodeId,
        })),
      );
      // Equal states may be one shared object, so none can be changed.
      for (const step of await store().transitions.listSteps()) {
        expect(Object.isFrozen(step.toState)).toBe(true);
        expect(step.fromState === null || Object.isFrozen(step.fromState)).toBe(true);
      }
    });

    it('counts what list would return, ignoring order and limit', async () => {
      await seed();
      const count = (q?: TransitionListQuery) => store().transitions.count(q);
      expect(await count()).toBe(6);
      expect(await count({ entityIds: ['p'] })).toBe(3);
      expect(await count({ entityIds: ['p'], kind: 'contradiction' })).toBe(1);
      expect(await count({ unresolved: true })).toBe(2);
      expect(await count({ since: T0 + DAY, until: T0 + 3 * DAY, limit: 1, order: 'desc' })).toBe(3);
      expect(await count({ entityIds: [] })).toBe(0);
    });

    it('counts one entity’s transitions by kind, in a window when given', async () => {
      await seed();
      const byKind = (q: { entityId: string; since?: number; until?: number }) => store().transitions.countByKind(q);
      expect(await byKind({ entityId: 'p' })).toEqual({ update: 1, contradiction: 1, resolution: 1 });
      expect(await byKind({ entityId: 'p', since: T0 + DAY })).toEqual({ contradiction: 1, resolution: 1 });
      expect(await byKind({ entityId: 'p', until: T0 + DAY })).toEqual({ update: 1 });
      expect(await byKind({ entityId: 'ghost' })).toEqual({});
    });

    it('counts transitions and changes per entity, in a window when given', async () => {
      await seed();
      await store().transitions.insert(transition('pc', 'p', { eventTime: T0 - DAY, kind: 'creation' }));
      const counts = (q: { since?: number; until?: number }) => store().transitions.countByEntity(q);
      expect(await counts({})).toEqual([
        { entityId: 'p', total: 4, changes: 3 },
        { entityId: 'q', total: 2, changes: 2 },
        { entityId: 'r', total: 1, changes: 1 },
      ]);
      expect(await counts({ until: T0 + DAY })).toEqual([{ entityId: 'p', total: 2, changes: 1 }]);
      expect(await counts({ since: T0 + 2 * DAY })).toEqual([
        { entityId: 'p', total: 1, changes: 1 },
        { entityId: 'q', total: 1, changes: 1 },
        { entityId: 'r', total: 1, changes: 1 },
      ]);
      expect(await counts({ since: T0 + 9 * DAY })).toEqual([]);
    });

    it('lists unresolved contradictions only', async () => {
      await seed();
      expect(await ids({ unresolved: true })).toEqual(['q1', 'r1']);
      expect(await ids({ unresolved: true, kind: 'contradiction' })).toEqual(['q1', 'r1']);
      expect(await ids({ unresolved: true, kind: 'update' })).toEqual([]);
      expect(await ids({ unresolved: true, entityIds: ['p', 'r'] })).toEqual(['r1']);
      expect(await ids({ unresolved: true, until: T0 + 2 * DAY })).toEqual(['q1']);
      expect(await ids({ unresolved: false })).toHaveLength(6);
      expect(await ids({ kind: 'contradiction' })).toEqual(['q1', 'p2', 'r1']);

      await store().transitions.markResolved({ id: 'r1', resolvedBy: 'pres' });
      expect(await ids({ unresolved: true })).toEqual(['q1']);
    });

    it('orders newest first (event time, then record time, then id, all descending)', async () => {
      await seed();
      expect(await ids({ order: 'desc' })).toEqual(['q2', 'pres', 'r1', 'p2', 'q1', 'p1']);
      expect(await ids({ order: 'asc' })).toEqual(['p1', 'q1', 'p2', 'r1', 'pres', 'q2']);
      expect(await ids({ order: 'desc', limit: 2 })).toEqual(['q2', 'pres']);
      expect(await ids({ order: 'desc', since: T0 + DAY, until: T0 + 3 * DAY })).toEqual(['r1', 'p2', 'q1']);
      expect(await ids({ order: 'desc', unresolved: true, limit: 1 })).toEqual(['r1']);
    });

    it('gets many transitions in the order asked', async () => {
      await seed();
      const many = await store().transitions.getMany(['q2', 'nope', 'p1', 'q2']);
      expect(many.map((t) => t.id)).toEqual(['q2', 'p1']);
      expect(many[1]).toEqual(transition('p1', 'p', { eventTime: T0 }));
      expect((await store().transitions.getMany(['p2']))[0]?.resolvedBy).toBe('pres');
      expect(await store().transitions.getMany([])).toEqual([]);
    });

    it('rejects invalid limits and orders', async () => {
      await expect(store().transitions.list({ limit: -1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(store().transitions.list({ limit: 1.5 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      const sideways = { order: 'sideways' } as unknown as TransitionListQuery;
      await expect(store().transitions.list(sideways)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(store().episodes.list({ order: 'sideways' } as unknown as EpisodeListQuery)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    });
  });
}
