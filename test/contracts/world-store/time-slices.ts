import { describe, expect, it } from 'vitest';
import type { FactRepo, RelationshipRepo } from '../../../src/ports/world-store.js';
import { DAY, T0, addEntity, addEpisode, fact, relationship, useFreshStore, type StoreFactory } from './fixtures.js';

/** The world as it was at a time, and what changed in a window: validFrom inclusive, validTo exclusive. */
export function describeTimeSlices(factory: StoreFactory): void {
  describe('facts valid at a time', () => {
    const store = useFreshStore(factory);
    const ids = async (query: Parameters<FactRepo['validAt']>[0]): Promise<string[]> =>
      (await store().facts.validAt(query)).map((f) => f.id);

    async function seed(): Promise<void> {
      for (const id of ['p', 'q']) await addEntity(store(), id);
      const rows = [
        fact('p-age19', 'p', { attribute: 'age', value: 19, validFrom: T0, validTo: T0 + DAY }),
        fact('p-age20', 'p', { attribute: 'age', value: 20, validFrom: T0 + DAY }),
        fact('p-city', 'p', { attribute: 'city', value: 'Lisbon', validFrom: T0 - DAY, validTo: T0 + 2 * DAY }),
        fact('q-stage', 'q', { attribute: 'stage', value: 'idea', validFrom: T0 }),
        fact('q-future', 'q', { attribute: 'aaa', value: 'later', validFrom: T0 + 5 * DAY }),
        fact('p-age-b', 'p', { attribute: 'age', value: 19.5, validFrom: T0 - DAY, validTo: T0 }),
      ];
      for (const row of rows) await store().facts.insert(row);
    }

    it('includes facts starting at the time and excludes facts ending at it', async () => {
      await seed();
      expect(await ids({ time: T0 })).toEqual(['p-age19', 'p-city', 'q-stage']);
      expect(await ids({ time: T0 + DAY })).toEqual(['p-age20', 'p-city', 'q-stage']);
      expect(await ids({ time: T0 + DAY - 1 })).toEqual(['p-age19', 'p-city', 'q-stage']);
      expect(await ids({ time: T0 - 1 })).toEqual(['p-age-b', 'p-city']);
      expect(await ids({ time: T0 - 2 * DAY })).toEqual([]);
      expect(await ids({ time: T0 + 10 * DAY })).toEqual(['p-age20', 'q-future', 'q-stage']);
    });

    it('orders by entity, attribute, then validFrom, and filters by entity', async () => {
      await seed();
      await store().facts.insert(fact('p-age-also', 'p', { attribute: 'age', value: 21, validFrom: T0 + DAY / 2 }));
      const facts = await store().facts.validAt({ time: T0 + DAY });
      expect(facts.map((f) => [f.entityId, f.attribute, f.id])).toEqual([
        ['p', 'age', 'p-age-also'],
        ['p', 'age', 'p-age20'],
        ['p', 'city', 'p-city'],
        ['q', 'stage', 'q-stage'],
      ]);
      expect(facts[1]).toEqual(fact('p-age20', 'p', { attribute: 'age', value: 20, validFrom: T0 + DAY }));
      expect(await ids({ time: T0 + DAY, entityIds: ['q', 'ghost'] })).toEqual(['q-stage']);
      expect(await ids({ time: T0 + DAY, entityIds: [] })).toEqual([]);
    });

    it('gives the values that differ between two instants (after vs until), as validAt reads them', async () => {
      await seed();
      const changed = async (after: number, until: number) =>
        (await store().facts.valuesChangedBetween({ after, until })).map((c) => [
          c.entityId,
          c.attribute,
          c.from,
          c.to,
        ]);
      // p-age19 ends and p-age20 begins at T0 + DAY; q-future begins at T0 + 5 days; p-city ends at T0 + 2 days.
      expect(await changed(T0, T0 + DAY)).toEqual([['p', 'age', 19, 20]]);
      expect(await changed(T0 + DAY, T0 + 4 * DAY)).toEqual([['p', 'city', 'Lisbon', null]]);
      expect(await changed(T0 + 2 * DAY, T0 + 5 * DAY)).toEqual([['q', 'aaa', null, 'later']]);
      expect(await changed(T0 - 1, T0)).toEqual([
        ['p', 'age', 19.5, 19],
        ['q', 'stage', null, 'idea'],
      ]);
      expect(await changed(T0 + 3 * DAY, T0 + 4 * DAY)).toEqual([]);
      // The later of two facts valid at once wins, as in validAt's order; a null value counts as no fact.
      await store().facts.insert(fact('p-age-also', 'p', { attribute: 'age', value: 21, validFrom: T0 + DAY / 2 }));
      await store().facts.insert(
        fact('q-none', 'q', { attribute: 'gone', value: null, validFrom: T0 - DAY, validTo: T0 + DAY / 2 }),
      );
      expect(await changed(T0, T0 + DAY)).toEqual([['p', 'age', 19, 20]]);
      expect(await changed(T0, T0 + DAY - 1)).toEqual([['p', 'age', 19, 21]]);
      // Against validAt at both ends, for every window.
      const state = async (time: number) => {
        const out = new Map<string, string>();
        for (const f of await store().facts.validAt({ time }))
          out.set(`${f.entityId}|${f.attribute}`, JSON.stringify(f.value));
        return out;
      };
      for (const [a, b] of [
        [T0 - 2 * DAY, T0],
        [T0, T0 + 10 * DAY],
        [T0 + DAY, T0 + 2 * DAY],
        [T0 - 2 * DAY, T0 + 10 * DAY],
      ] as const) {
        const [x, y] = [await state(a), await state(b)];
        const expected = [...new Set([...x.keys(), ...y.keys()])]
          .filter((k) => (x.get(k) ?? 'null') !== (y.get(k) ?? 'null'))
          .sort()
          .map((k) => [...k.split('|'), JSON.parse(x.get(k) ?? 'null'), JSON.parse(y.get(k) ?? 'null')]);
        expect(await changed(a, b)).toEqual(expected);
      }
    });
  });

  describe('relationships valid at a time and changed in a window', () => {
    const store = useFreshStore(factory);
    const validAt = async (query: Parameters<RelationshipRepo['validAt']>[0]): Promise<string[]> =>
      (await store().relationships.validAt(query)).map((r) => r.id);
    const changed = async (query: Parameters<RelationshipRepo['changedBetween']>[0]): Promise<string[]> =>
      (await store().relationships.changedBetween(query)).map((r) => r.id);

    async function seed(): Promise<void> {
      for (const id of ['ana', 'pie', 'sra', 'bob']) await addEntity(store(), id);
      const rows = [
        relationship('r-open', 'ana', 'pie', { validFrom: T0 }),
        relationship('r-closed', 'ana', 'sra', { validFrom: T0 - DAY, validTo: T0 + DAY }),
        relationship('r-later', 'sra', 'bob', { validFrom: T0 + 2 * DAY, type: 'MENTORS' }),
        relationship('r-tie', 'bob', 'ana', { validFrom: T0, type: 'KNOWS' }),
        relationship('r-span', 'pie', 'sra', { validFrom: T0 - 10 * DAY, validTo: T0 + 10 * DAY }),
      ];
      for (const row of rows) await store().relationships.insert(row);
    }

    it('lists edges valid at a time by validFrom then id, validTo exclusive', async () => {
      await seed();
      expect(await validAt({ time: T0 })).toEqual(['r-span', 'r-closed', 'r-open', 'r-tie']);
      expect(await validAt({ time: T0 + DAY })).toEqual(['r-span', 'r-open', 'r-tie']);
      expect(await validAt({ time: T0 + DAY - 1 })).toEqual(['r-span', 'r-closed', 'r-open', 'r-tie']);
      expect(await validAt({ time: T0 - 1 })).toEqual(['r-span', 'r-closed']);
      expect(await validAt({ time: T0 + 2 * DAY, limit: 2 })).toEqual(['r-span', 'r-open']);
      expect((await store().relationships.validAt({ time: T0 + 2 * DAY }))[3]).toEqual(
        relationship('r-later', 'sra', 'bob', { validFrom: T0 + 2 * DAY, type: 'MENTORS' }),
      );
    });

    it('filters valid edges by either end', async () => {
      await seed();
      expect(await validAt({ time: T0, entityIds: ['ana'] })).toEqual(['r-closed', 'r-open', 'r-tie']);
      expect(await validAt({ time: T0, entityIds: ['bob', 'pie'] })).toEqual(['r-span', 'r-open', 'r-tie']);
      expect(await validAt({ time: T0 + 3 * DAY, entityIds: ['sra'] })).toEqual(['r-span', 'r-later']);
      expect(await validAt({ time: T0 + 3 * DAY, entityIds: ['sra'], limit: 1 })).toEqual(['r-span']);
      expect(await validAt({ time: T0, entityIds: [] })).toEqual([]);
    });

    it('lists edges that began or ended in [since, until), once each, by the time of that change', async () => {
      await seed();
      expect(await changed({ since: T0, until: T0 + DAY })).toEqual(['r-open', 'r-tie']);
      expect(await changed({ since: T0, until: T0 + DAY + 1 })).toEqual(['r-open', 'r-tie', 'r-closed']);
      expect(await changed({ since: T0 + 1, until: T0 + 3 * DAY })).toEqual(['r-closed', 'r-later']);
      expect(await changed({ since: T0 - DAY, until: T0 + DAY + 1 })).toEqual(['r-closed', 'r-open', 'r-tie']);
      expect(await changed({ since: T0 + 3 * DAY, until: T0 + 10 * DAY })).toEqual([]);
      expect(await changed({ since: T0 + 10 * DAY, until: T0 + 11 * DAY })).toEqual(['r-span']);
      expect(await changed({ since: T0 - DAY, until: T0 + 3 * DAY, limit: 2 })).toEqual(['r-closed', 'r-open']);
      // Without some types (a diff leaves out the edges its new entities imply).
      const window = { since: T0 - DAY, until: T0 + 3 * DAY };
      expect(await changed({ ...window, excludeTypes: ['KNOWS', 'MENTORS'] })).toEqual(['r-closed', 'r-open']);
      expect(await changed({ ...window, excludeTypes: [] })).toEqual(await changed(window));
      expect(await changed({ ...window, excludeTypes: ['KNOWS'], limit: 3 })).toEqual([
        'r-closed',
        'r-open',
        'r-later',
      ]);
      await expect(changed({ since: T0, until: T0 + DAY, limit: -2 })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    });
  });

  describe('entities active in a window', () => {
    const store = useFreshStore(factory);

    it('counts mentions in [since, until), most mentioned first, then latest, then id', async () => {
      const episodes: string[] = [];
      for (let i = 0; i < 5; i++) episodes.push(await addEpisode(store(), { externalId: `e${i}` }));
      for (const id of ['p', 'q', 'r', 's']) await addEntity(store(), id);
      const mention = (entityId: string, i: number, time: number) =>
        store().mentions.add({ entityId, episodeId: episodes[i] ?? 'missing', time });
      await mention('p', 0, T0);
      await mention('p', 1, T0 + DAY);
      await mention('p', 2, T0 + 2 * DAY);
      await mention('q', 0, T0 + DAY);
      await mention('q', 3, T0 + 2 * DAY - 1);
      await mention('r', 1, T0 + DAY / 2);
      await mention('r', 4, T0 + 2 * DAY - 1);
      await mention('s', 4, T0 - 1);

      expect(await store().mentions.activeBetween({ since: T0, until: T0 + 2 * DAY })).toEqual([
        { entityId: 'q', mentions: 2, first: T0 + DAY, last: T0 + 2 * DAY - 1 },
        { entityId: 'r', mentions: 2, first: T0 + DAY / 2, last: T0 + 2 * DAY - 1 },
        { entityId: 'p', mentions: 2, first: T0, last: T0 + DAY },
      ]);
      const wide = await store().mentions.activeBetween({ since: T0 - 1, until: T0 + 2 * DAY + 1, limit: 2 });
      expect(wide.map((a) => [a.entityId, a.mentions])).toEqual([
        ['p', 3],
        ['q', 2],
      ]);
      expect(await store().mentions.activeBetween({ since: T0 + 3 * DAY, until: T0 + 4 * DAY })).toEqual([]);
      await expect(store().mentions.activeBetween({ since: T0, until: T0 + DAY, limit: -1 })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    });
  });
}
