import { describe, expect, it } from 'vitest';
import {
  DAY,
  T0,
  addEntity,
  addEpisode,
  fact,
  relationship,
  transition,
  useFreshStore,
  type StoreFactory,
} from './fixtures.js';

/**
 * Stored times are whole milliseconds, but the port's bounds are plain numbers. A bound between two stored times
 * selects what comparing them as real numbers selects, on every adapter: SQLite compares so; PostgreSQL refuses a
 * fractional value for a BIGINT parameter, so its adapter makes each bound the whole number that selects the same
 * rows. (`pie search` once sent the middle of an odd-length range, x.5 ms, and failed on PostgreSQL only.)
 */
export function describeTimeBounds(factory: StoreFactory): void {
  describe('time bounds that are not whole milliseconds', () => {
    const store = useFreshStore(factory);

    it('select [since, until) of episodes, transitions, mentions and observations as real numbers would', async () => {
      const s = store();
      const episodes: string[] = [];
      for (const i of [0, 1, 2]) episodes.push(await addEpisode(s, { externalId: `e${i}`, createdAt: T0 + i }));
      for (const id of ['p', 'q', 'r']) await addEntity(s, id);
      for (const [i, id] of ['p', 'q', 'r'].entries()) {
        await s.transitions.insert(transition(`t${i}`, id, { eventTime: T0 + i }));
        await s.mentions.add({ entityId: id, episodeId: episodes[i] ?? 'missing', time: T0 + i });
        await s.pyramid.addObservation({
          id: `o${i}`,
          text: `observation ${i}`,
          importance: 5,
          modelId: null,
          entityId: null,
          episodeId: null,
          eventTime: T0 + i,
          recordedAt: T0,
          source: 'manual',
        });
      }
      const window = { since: T0 + 0.5, until: T0 + 1.5 };

      expect((await s.episodes.list(window)).map((e) => e.createdAt)).toEqual([T0 + 1]);
      expect(await s.episodes.count({ since: T0 + 0.5 })).toBe(2);
      expect(await s.episodes.count({ until: T0 + 0.5 })).toBe(1);
      expect((await s.transitions.list(window)).map((t) => t.id)).toEqual(['t1']);
      expect(await s.transitions.count(window)).toBe(1);
      expect(await s.transitions.countByKind({ entityId: 'q', ...window })).toEqual({ update: 1 });
      expect(await s.transitions.countByKind({ entityId: 'p', ...window })).toEqual({});
      expect(await s.transitions.countByEntity(window)).toEqual([{ entityId: 'q', total: 1, changes: 1 }]);
      expect((await s.transitions.latest({ until: T0 + 1.5, limit: 5 })).map((t) => t.id)).toEqual(['t1', 't0']);
      expect((await s.mentions.activeBetween(window)).map((a) => a.entityId)).toEqual(['q']);
      expect((await s.pyramid.observations(window)).map((o) => o.id)).toEqual(['o1']);
      // An infinite bound bounds nothing, as with real numbers.
      const all = { since: -Infinity, until: Infinity };
      expect(await s.episodes.count(all)).toBe(3);
      expect(await s.transitions.count(all)).toBe(3);
      expect(await s.mentions.activeBetween(all)).toHaveLength(3);
    });

    it('select facts and relationships valid at a time, and changed in a window, as real numbers would', async () => {
      const s = store();
      for (const id of ['p', 'q']) await addEntity(s, id);
      await s.facts.insert(fact('f-old', 'p', { attribute: 'age', value: 19, validFrom: T0 - DAY, validTo: T0 + 1 }));
      await s.facts.insert(fact('f-new', 'p', { attribute: 'age', value: 20, validFrom: T0 + 1 }));
      await s.facts.insert(fact('f-q', 'q', { validFrom: T0 + 2 }));
      await s.relationships.insert(relationship('r-old', 'p', 'q', { validFrom: T0 - DAY, validTo: T0 + 1 }));
      await s.relationships.insert(relationship('r-new', 'q', 'p', { validFrom: T0 + 1, type: 'KNOWS' }));

      expect((await s.facts.validAt({ time: T0 + 0.5 })).map((f) => f.id)).toEqual(['f-old']);
      expect((await s.facts.validAt({ time: T0 + 1.5, entityIds: ['p'] })).map((f) => f.id)).toEqual(['f-new']);
      // (after, until]: p's facts changed at T0 + 1, q's began at T0 + 2. Both edges changed at T0 + 1: by id.
      const changed = async (after: number, until: number) =>
        (await s.facts.valuesChangedBetween({ after, until })).map((v) => v.entityId);
      expect(await changed(T0 + 0.5, T0 + 1.5)).toEqual(['p']);
      expect(await changed(T0 + 1.5, T0 + 2.5)).toEqual(['q']);
      expect((await s.relationships.validAt({ time: T0 + 0.5 })).map((r) => r.id)).toEqual(['r-old']);
      expect((await s.relationships.validAt({ time: T0 + 1.5, entityIds: ['p'] })).map((r) => r.id)).toEqual(['r-new']);
      expect((await s.relationships.changedBetween({ since: T0 + 0.5, until: T0 + 1.5 })).map((r) => r.id)).toEqual([
        'r-new',
        'r-old',
      ]);
      expect(await s.relationships.changedBetween({ since: T0 + 1.5, until: T0 + 2.5 })).toEqual([]);
    });

    it('select entities first seen by a time, and finished sleep tasks expired before now, as real numbers would', async () => {
      const s = store();
      await addEntity(s, 'early', { firstSeen: T0 });
      await addEntity(s, 'late', { firstSeen: T0 + 1 });
      expect((await s.entities.list({ firstSeenAtOrBefore: T0 + 0.5 })).map((e) => e.id)).toEqual(['early']);
      expect(await s.entities.count({ firstSeenAtOrBefore: T0 + 1.5 })).toBe(2);

      await s.tasks.leave({
        id: 'k1',
        action: 'resolve_contradiction',
        subjectIds: ['early'],
        priority: 50,
        source: 'ingest',
        reason: 'a contradiction was recorded',
        createdAt: T0,
      });
      const row = await s.upkeep.getRow({ table: 'sleep_tasks', id: 'k1' });
      await s.upkeep.putRow({
        table: 'sleep_tasks',
        id: 'k1',
        row: { ...row, status: 'completed', completed_at: T0, expires_at: T0 + 1, result: 'resolved' },
      });
      expect(await s.tasks.expired({ now: T0 + 0.5, limit: 10 })).toEqual([]);
      expect((await s.tasks.expired({ now: T0 + 1.5, limit: 10 })).map((t) => t.id)).toEqual(['k1']);
    });
  });
}
