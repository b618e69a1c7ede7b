import { describe, expect, it } from 'vitest';
import type { Transition } from '../../../src/domain/world.js';
import type { RelationshipScope, TransitionRepo } from '../../../src/ports/world-store.js';
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

export function describeHistory(factory: StoreFactory): void {
  describe('transitions', () => {
    const store = useFreshStore(factory);

    it('round-trips and lists an entity history chronologically', async () => {
      const episodeId = await addEpisode(store(), { externalId: 'e' });
      await addEntity(store(), 'p');
      await addEntity(store(), 'q');
      const created = transition('t1', 'p', {
        kind: 'creation',
        fromState: null,
        toState: { stage: 'idea' },
        eventTime: T0,
        episodeId,
        batchId: '2024-03-15',
      });
      await store().transitions.insert(transition('t3', 'p', { eventTime: T0 + 2 * DAY }));
      await store().transitions.insert(created);
      await store().transitions.insert(transition('t2', 'p', { eventTime: T0 + DAY, kind: 'contradiction' }));
      await store().transitions.insert(transition('tq', 'q', { eventTime: T0 + DAY }));

      const history = await store().transitions.forEntity('p');
      expect(history.map((t) => t.id)).toEqual(['t1', 't2', 't3']);
      expect(history[0]).toEqual(created);
      expect(await store().transitions.forEntity('nobody')).toEqual([]);
    });

    it('lists across entities by event time with filters', async () => {
      await addEntity(store(), 'p');
      await store().transitions.insert(transition('late', 'p', { eventTime: T0 + 3 * DAY }));
      await store().transitions.insert(transition('early', 'p', { eventTime: T0 }));
      await store().transitions.insert(transition('mid', 'p', { eventTime: T0 + DAY, kind: 'contradiction' }));

      const ids = async (query?: Parameters<TransitionRepo['list']>[0]): Promise<string[]> =>
        (await store().transitions.list(query)).map((t) => t.id);
      expect(await ids()).toEqual(['early', 'mid', 'late']);
      expect(await ids({ since: T0 + DAY })).toEqual(['mid', 'late']);
      expect(await ids({ until: T0 + DAY })).toEqual(['early']);
      expect(await ids({ kind: 'contradiction' })).toEqual(['mid']);
      expect(await ids({ limit: 2 })).toEqual(['early', 'mid']);
    });

    it("reads several entities' transitions at once, each from its own start", async () => {
      await addEntity(store(), 'p');
      await addEntity(store(), 'q');
      await addEntity(store(), 'r');
      await store().transitions.insert(transition('p2', 'p', { eventTime: T0 + 2 * DAY }));
      await store().transitions.insert(transition('p0', 'p', { eventTime: T0 }));
      await store().transitions.insert(transition('p1', 'p', { eventTime: T0 + DAY, recordedAt: T0 + 5 * DAY }));
      await store().transitions.insert(transition('p1a', 'p', { eventTime: T0 + DAY, recordedAt: T0 + 4 * DAY }));
      await store().transitions.insert(transition('q0', 'q', { eventTime: T0 }));
      await store().transitions.insert(transition('q1', 'q', { eventTime: T0 + DAY }));
      await store().transitions.insert(transition('r0', 'r', { eventTime: T0 }));

      const read = await store().transitions.forEntitiesSince([
        { entityId: 'q', since: T0 - DAY },
        { entityId: 'nobody', since: T0 },
        { entityId: 'p', since: T0 + DAY },
      ]);
      expect(read.map((t) => t.id)).toEqual(['q0', 'q1', 'p1a', 'p1', 'p2']);
      // The same transitions as forEntity lists them.
      const p = await store().transitions.forEntity('p');
      expect(read.slice(2)).toEqual(p.filter((t) => t.eventTime >= T0 + DAY));
      expect(await store().transitions.forEntitiesSince([])).toEqual([]);
    });

    it('returns the latest transitions before a time, newest first', async () => {
      await addEntity(store(), 'p');
      await addEntity(store(), 'q');
      for (const [i, id] of ['t0', 't1', 't2', 't3'].entries()) {
        await store().transitions.insert(transition(id, i % 2 === 0 ? 'p' : 'q', { eventTime: T0 + i * DAY }));
      }
      const ids = async (query: Parameters<TransitionRepo['latest']>[0]): Promise<string[]> =>
        (await store().transitions.latest(query)).map((t) => t.id);
      expect(await ids({ limit: 2 })).toEqual(['t3', 't2']);
      expect(await ids({ until: T0 + 2 * DAY, limit: 5 })).toEqual(['t1', 't0']);
      expect(await ids({ until: T0, limit: 5 })).toEqual([]);
    });

    it("counts each entity's transitions and changes in a window, leaving out a sleep's maintenance records", async () => {
      await addEntity(store(), 'p');
      await addEntity(store(), 'q');
      const add = (id: string, entity: string, kind: Transition['kind'], day: number) =>
        store().transitions.insert(transition(id, entity, { kind, eventTime: T0 + day * DAY }));
      await add('p0', 'p', 'creation', 0);
      await add('p1', 'p', 'update', 1);
      await add('p2', 'p', 'contradiction', 2);
      await add('ps', 'p', 'summary', 2);
      await add('pa', 'p', 'archival', 3);
      await add('q0', 'q', 'creation', 3);
      expect(await store().transitions.countByEntity({})).toEqual([
        { entityId: 'p', total: 3, changes: 2 },
        { entityId: 'q', total: 1, changes: 0 },
      ]);
      expect(await store().transitions.countByEntity({ since: T0 + DAY, until: T0 + 3 * DAY })).toEqual([
        { entityId: 'p', total: 2, changes: 2 },
      ]);
      // Only maintenance records in the window: no row.
      await add('qs', 'q', 'summary', 5);
      expect(await store().transitions.countByEntity({ since: T0 + 4 * DAY })).toEqual([]);
    });

    it('marks a contradiction resolved', async () => {
      await addEntity(store(), 'p');
      await store().transitions.insert(transition('c', 'p', { kind: 'contradiction' }));
      await store().transitions.insert(transition('r', 'p', { kind: 'resolution', eventTime: T0 + DAY }));
      await store().transitions.markResolved({ id: 'c', resolvedBy: 'r' });
      expect((await store().transitions.forEntity('p'))[0]).toMatchObject({ id: 'c', resolvedBy: 'r' });
      await expect(store().transitions.markResolved({ id: 'nope', resolvedBy: 'r' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });

    it('moves a creation to an earlier mention: its time, its conversation and its summary, found by search', async () => {
      await addEntity(store(), 'p');
      const early = await addEpisode(store(), { externalId: 'early', createdAt: T0 - 30 * DAY });
      const late = await addEpisode(store(), { externalId: 'late', createdAt: T0 + 5 * DAY });
      await store().transitions.insert(
        transition('c', 'p', {
          kind: 'creation',
          eventTime: T0 + 5 * DAY,
          episodeId: late,
          summary: 'First mentioned in “Harbour”',
        }),
      );
      await store().transitions.insert(transition('u', 'p', { kind: 'update', eventTime: T0 + 6 * DAY }));
      await store().transitions.retime({
        id: 'c',
        eventTime: T0 - 30 * DAY,
        episodeId: early,
        summary: 'First mentioned in “Lighthouse”',
      });
      const [first, second] = await store().transitions.forEntity('p');
      expect(first).toMatchObject({
        id: 'c',
        kind: 'creation',
        eventTime: T0 - 30 * DAY,
        episodeId: early,
        summary: 'First mentioned in “Lighthouse”',
      });
      expect(second?.id).toBe('u');
      expect((await store().search.transitions({ text: 'Lighthouse' })).map((h) => h.transitionId)).toEqual(['c']);
      expect(await store().search.transitions({ text: 'Harbour' })).toEqual([]);
      await expect(
        store().transitions.retime({ id: 'nope', eventTime: T0, episodeId: null, summary: 'x' }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('rejects a transition of an unknown entity', async () => {
      await expect(store().transitions.insert(transition('t', 'ghost'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('facts', () => {
    const store = useFreshStore(factory);

    it('keeps attribute history: current facts, closing and superseding', async () => {
      await addEntity(store(), 'p');
      await store().facts.insert(fact('age19', 'p', { attribute: 'age', value: 19, validFrom: T0 }));
      await store().facts.insert(fact('stage', 'p', { attribute: 'stage', value: 'idea', validFrom: T0 }));
      await store().facts.insert(fact('age20', 'p', { attribute: 'age', value: 20, validFrom: T0 + DAY }));
      await store().facts.close({ id: 'age19', validTo: T0 + DAY, supersededBy: 'age20' });

      const current = await store().facts.current('p');
      expect(current.map((f) => [f.id, f.value])).toEqual([
        ['age20', 20],
        ['stage', 'idea'],
      ]);
      const history = await store().facts.history('p', 'age');
      expect(history.map((f) => f.id)).toEqual(['age19', 'age20']);
      expect(history[0]).toEqual(
        fact('age19', 'p', { attribute: 'age', value: 19, validTo: T0 + DAY, supersededBy: 'age20' }),
      );
      expect((await store().facts.history('p')).map((f) => f.id)).toEqual(['age19', 'stage', 'age20']);
      await expect(store().facts.close({ id: 'nope', validTo: T0, supersededBy: null })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });

    it("backdate moves a fact's start back, never forward, and an unknown fact is an error", async () => {
      await addEntity(store(), 'p');
      await store().facts.insert(fact('stage', 'p', { attribute: 'stage', value: 'idea', validFrom: T0 + 10 * DAY }));
      await store().facts.backdate({ id: 'stage', validFrom: T0 + 2 * DAY });
      await store().facts.backdate({ id: 'stage', validFrom: T0 + 5 * DAY });
      expect((await store().facts.current('p')).map((f) => [f.id, f.validFrom])).toEqual([['stage', T0 + 2 * DAY]]);
      expect((await store().facts.validAt({ time: T0 + 3 * DAY })).map((f) => f.id)).toEqual(['stage']);
      await expect(store().facts.backdate({ id: 'nope', validFrom: T0 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('reads the current facts of several entities at once, as current() lists each', async () => {
      await addEntity(store(), 'p');
      await addEntity(store(), 'q');
      await addEntity(store(), 'r');
      await store().facts.insert(fact('p-stage', 'p', { attribute: 'stage', value: 'idea', validFrom: T0 }));
      await store().facts.insert(fact('p-age', 'p', { attribute: 'age', value: 19, validFrom: T0 }));
      await store().facts.insert(fact('p-old', 'p', { attribute: 'age', value: 18, validTo: T0 }));
      await store().facts.insert(fact('q-age', 'q', { attribute: 'age', value: 40, validFrom: T0 }));
      await store().facts.insert(fact('r-age', 'r', { attribute: 'age', value: 7, validFrom: T0 }));

      const many = await store().facts.currentOf(['q', 'p', 'nobody']);
      expect(many).toEqual([...(await store().facts.current('p')), ...(await store().facts.current('q'))]);
      expect(many.map((f) => f.id)).toEqual(['p-age', 'p-stage', 'q-age']);
      expect(await store().facts.currentOf([])).toEqual([]);
    });

    it('sums up the confidence of current facts only', async () => {
      expect(await store().facts.currentConfidence()).toEqual({ facts: 0, mean: 0 });
      await addEntity(store(), 'p');
      await store().facts.insert(fact('old', 'p', { attribute: 'age', confidence: 0.1, validTo: T0 + DAY }));
      await store().facts.insert(fact('a', 'p', { attribute: 'age', confidence: 0.5, validFrom: T0 + DAY }));
      await store().facts.insert(fact('b', 'p', { attribute: 'stage', confidence: 1 }));
      const summary = await store().facts.currentConfidence();
      expect(summary.facts).toBe(2);
      expect(summary.mean).toBeCloseTo(0.75, 9);
    });

    it('keeps value types apart: number, string, boolean, null', async () => {
      await addEntity(store(), 'p');
      const values = [20, '20', true, null] as const;
      for (const [i, value] of values.entries()) {
        await store().facts.insert(fact(`f${i}`, 'p', { attribute: `a${i}`, value }));
      }
      expect((await store().facts.current('p')).map((f) => f.value)).toEqual([...values]);
    });
  });

  describe('relationships', () => {
    const store = useFreshStore(factory);

    it('finds edges from either end, open ones by default', async () => {
      for (const id of ['ana', 'pie', 'sra']) await addEntity(store(), id);
      const works = relationship('r1', 'ana', 'pie', { properties: { role: 'founder', since: 2023 } });
      await store().relationships.insert(works);
      await store().relationships.insert(relationship('r2', 'sra', 'ana', { type: 'MENTORS', validFrom: T0 + DAY }));
      await store().relationships.insert(relationship('r3', 'ana', 'sra', { type: 'USES', validFrom: T0 + 2 * DAY }));
      await store().relationships.close({ id: 'r3', validTo: T0 + 3 * DAY });

      expect((await store().relationships.forEntity('ana')).map((r) => r.id)).toEqual(['r1', 'r2']);
      expect((await store().relationships.forEntity('ana', { includeEnded: true })).map((r) => r.id)).toEqual([
        'r1',
        'r2',
        'r3',
      ]);
      expect((await store().relationships.forEntity('pie'))[0]).toEqual(works);
      expect(await store().relationships.forEntity('nobody')).toEqual([]);
    });

    it('leaves out excluded types and, with a limit, keeps open then newest edges', async () => {
      for (const id of ['ana', 'pie', 'sra', 'umd']) await addEntity(store(), id);
      await store().relationships.insert(relationship('w', 'ana', 'pie', { validFrom: T0 }));
      await store().relationships.insert(relationship('d', 'ana', 'umd', { type: 'DURING', validFrom: T0 + 3 * DAY }));
      await store().relationships.insert(relationship('m', 'sra', 'ana', { type: 'MENTORS', validFrom: T0 + DAY }));
      await store().relationships.insert(relationship('e', 'ana', 'sra', { type: 'USES', validFrom: T0 + 4 * DAY }));
      await store().relationships.close({ id: 'e', validTo: T0 + 5 * DAY });
      const ids = async (options: RelationshipScope) =>
        (await store().relationships.forEntity('ana', options)).map((r) => r.id);
      expect(await ids({ excludeTypes: ['DURING'] })).toEqual(['w', 'm']);
      expect(await ids({ includeEnded: true, excludeTypes: ['DURING', 'MENTORS'] })).toEqual(['w', 'e']);
      // Limit 2: open edges first, newest first (d, m), returned chronologically; the ended edge comes last.
      expect(await ids({ includeEnded: true, limit: 2 })).toEqual(['m', 'd']);
      expect(await ids({ includeEnded: true, limit: 4 })).toEqual(['w', 'm', 'd', 'e']);
      expect(await ids({ includeEnded: true, excludeTypes: ['DURING'], limit: 3 })).toEqual(['w', 'm', 'e']);
      expect(await ids({ limit: 0 })).toEqual([]);
    });

    it('with a limit, keeps typed edges before co-mention links (RELATED_TO), however new those are', async () => {
      for (const id of ['ana', 'pie', 'sra']) await addEntity(store(), id);
      await store().relationships.insert(relationship('w', 'ana', 'pie', { validFrom: T0 }));
      await store().relationships.insert(relationship('r1', 'ana', 'sra', { type: 'RELATED_TO', validFrom: T0 + DAY }));
      await store().relationships.insert(
        relationship('r2', 'pie', 'ana', { type: 'RELATED_TO', validFrom: T0 + 2 * DAY }),
      );
      const ids = async (options: RelationshipScope) =>
        (await store().relationships.forEntity('ana', options)).map((r) => r.id);
      expect(await ids({ limit: 1 })).toEqual(['w']);
      expect(await ids({ limit: 2 })).toEqual(['w', 'r2']);
      expect(await ids({})).toEqual(['w', 'r1', 'r2']);
    });

    it('lists an edge from an entity to itself once, with or without a limit', async () => {
      await addEntity(store(), 'ana');
      await addEntity(store(), 'pie');
      await store().relationships.insert(relationship('self', 'ana', 'ana', { type: 'REFLECTS_ON' }));
      await store().relationships.insert(relationship('w', 'ana', 'pie', { validFrom: T0 + DAY }));
      const ids = async (options?: RelationshipScope) =>
        (await store().relationships.forEntity('ana', options)).map((r) => r.id);
      expect(await ids()).toEqual(['self', 'w']);
      expect(await ids({ limit: 5 })).toEqual(['self', 'w']);
      expect(await ids({ limit: 1 })).toEqual(['w']);
    });

    it('finds the open edge of a type and closes it', async () => {
      for (const id of ['ana', 'pie']) await addEntity(store(), id);
      await store().relationships.insert(relationship('old', 'ana', 'pie', { validTo: T0 + DAY }));
      await store().relationships.insert(
        relationship('cur', 'ana', 'pie', { validFrom: T0 + DAY, discoveredBy: 'dream-1' }),
      );

      const open = await store().relationships.findOpen({ sourceId: 'ana', targetId: 'pie', type: 'WORKS_ON' });
      expect(open).toMatchObject({ id: 'cur', discoveredBy: 'dream-1', validTo: null });
      expect(await store().relationships.findOpen({ sourceId: 'pie', targetId: 'ana', type: 'WORKS_ON' })).toBeNull();
      expect(await store().relationships.findOpen({ sourceId: 'ana', targetId: 'pie', type: 'USES' })).toBeNull();

      await store().relationships.close({ id: 'cur', validTo: T0 + 2 * DAY });
      expect(await store().relationships.findOpen({ sourceId: 'ana', targetId: 'pie', type: 'WORKS_ON' })).toBeNull();
      await expect(store().relationships.close({ id: 'nope', validTo: T0 })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });

    it('finds the latest edge of a type whether it is open or ended', async () => {
      for (const id of ['ana', 'pie']) await addEntity(store(), id);
      const edge = { sourceId: 'ana', targetId: 'pie', type: 'WORKS_ON' };
      expect(await store().relationships.findLatest(edge)).toBeNull();
      await store().relationships.insert(relationship('first', 'ana', 'pie', { validTo: T0 + DAY }));
      await store().relationships.insert(
        relationship('second', 'ana', 'pie', { validFrom: T0 + 2 * DAY, validTo: T0 + 3 * DAY }),
      );
      await store().relationships.insert(
        relationship('other', 'ana', 'pie', { type: 'USES', validFrom: T0 + 4 * DAY }),
      );
      // Both WORKS_ON edges ended: the latest is the one that began last, and no open one exists.
      expect(await store().relationships.findLatest(edge)).toMatchObject({ id: 'second', validTo: T0 + 3 * DAY });
      expect(await store().relationships.findOpen(edge)).toBeNull();
      expect(await store().relationships.findLatest({ ...edge, sourceId: 'pie', targetId: 'ana' })).toBeNull();

      await store().relationships.insert(relationship('third', 'ana', 'pie', { validFrom: T0 + 5 * DAY }));
      expect(await store().relationships.findLatest(edge)).toMatchObject({ id: 'third', validTo: null });
      // Every version of the edge, by start; other types and directions are not its versions.
      expect((await store().relationships.versions(edge)).map((r) => r.id)).toEqual(['first', 'second', 'third']);
      expect(await store().relationships.versions({ ...edge, sourceId: 'pie', targetId: 'ana' })).toEqual([]);
    });

    it("backdate moves an edge's start back, never forward, and an unknown edge is an error", async () => {
      for (const id of ['ana', 'pie']) await addEntity(store(), id);
      await store().relationships.insert(relationship('owns', 'ana', 'pie', { validFrom: T0 + 10 * DAY }));
      await store().relationships.backdate({ id: 'owns', validFrom: T0 + 2 * DAY });
      await store().relationships.backdate({ id: 'owns', validFrom: T0 + 5 * DAY });
      const edge = { sourceId: 'ana', targetId: 'pie', type: 'WORKS_ON' };
      expect(await store().relationships.findOpen(edge)).toMatchObject({ id: 'owns', validFrom: T0 + 2 * DAY });
      // Valid from its new start on.
      expect((await store().relationships.validAt({ time: T0 + 3 * DAY })).map((r) => r.id)).toEqual(['owns']);
      await expect(store().relationships.backdate({ id: 'nope', validFrom: T0 })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });

    it('removes one edge, leaving the others, and an unknown edge is an error', async () => {
      for (const id of ['ana', 'pie', 'spring']) await addEntity(store(), id);
      await store().relationships.insert(relationship('during', 'ana', 'spring', { type: 'DURING' }));
      await store().relationships.insert(relationship('owns', 'ana', 'pie'));
      await store().relationships.remove('during');
      expect((await store().relationships.forEntity('ana', { includeEnded: true })).map((r) => r.id)).toEqual(['owns']);
      await expect(store().relationships.remove('during')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('mentions', () => {
    const store = useFreshStore(factory);

    it('records each entity/episode pair once, keeping the earliest time', async () => {
      const a = await addEpisode(store(), { externalId: 'a' });
      const b = await addEpisode(store(), { externalId: 'b' });
      await addEntity(store(), 'p');
      await addEntity(store(), 'q');
      await store().mentions.add({ entityId: 'p', episodeId: b, time: T0 + DAY });
      await store().mentions.add({ entityId: 'p', episodeId: a, time: T0 + 2 * DAY });
      await store().mentions.add({ entityId: 'p', episodeId: a, time: T0 });
      await store().mentions.add({ entityId: 'p', episodeId: a, time: T0 + 3 * DAY });
      await store().mentions.add({ entityId: 'q', episodeId: a, time: T0 });

      expect(await store().mentions.forEntity('p')).toEqual([
        { entityId: 'p', episodeId: a, time: T0 },
        { entityId: 'p', episodeId: b, time: T0 + DAY },
      ]);
      expect((await store().mentions.forEpisode(a)).map((m) => m.entityId)).toEqual(['p', 'q']);
      // An episode without mentions has none.
      const c = await addEpisode(store(), { externalId: 'c' });
      const episodes = await store().episodes.list();
      const each = await Promise.all(
        episodes.map(async (e) => ({ episodeId: e.id, mentions: await store().mentions.forEpisode(e.id) })),
      );
      expect(each.find((e) => e.episodeId === c)?.mentions).toEqual([]);
      // Every episode that mentions someone, in list order, with its earliest mention and the entities it names.
      const named = await store().mentions.episodeEntities();
      expect(named.map((e) => ({ ...e, entityIds: [...e.entityIds].sort() }))).toEqual(
        each
          .filter((e) => e.mentions.length > 0)
          .map((e) => ({
            episodeId: e.episodeId,
            time: Math.min(...e.mentions.map((m) => m.time)),
            entityIds: e.mentions.map((m) => m.entityId).sort(),
          })),
      );
      expect(named.find((e) => e.episodeId === a)).toEqual({ episodeId: a, time: T0, entityIds: expect.any(Array) });
      expect(await store().mentions.forEntity('nobody')).toEqual([]);
      // Several entities' mentions in one read, each from its own start: in the order given, each as forEntity
      // lists it.
      expect(
        await store().mentions.forEntitiesSince([
          { entityId: 'q', since: T0 },
          { entityId: 'nobody', since: T0 },
          { entityId: 'p', since: T0 + 1 },
        ]),
      ).toEqual([...(await store().mentions.forEntity('q')), ...(await store().mentions.forEntity('p')).slice(1)]);
      expect(await store().mentions.forEntitiesSince([{ entityId: 'p', since: T0 }])).toEqual(
        await store().mentions.forEntity('p'),
      );
      expect(await store().mentions.forEntitiesSince([])).toEqual([]);
      await expect(store().mentions.add({ entityId: 'ghost', episodeId: a, time: T0 })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });
  });

  describe('periods', () => {
    const store = useFreshStore(factory);

    it('upserts by entity and lists by start', async () => {
      await addEntity(store(), 'soph', { type: 'period', name: 'Sophomore year' });
      await addEntity(store(), 'fresh', { type: 'period', name: 'Freshman year' });
      await store().periods.upsert({ entityId: 'soph', name: 'Sophomore year', start: T0 + 365 * DAY, end: null });
      await store().periods.upsert({ entityId: 'fresh', name: 'Freshman', start: T0, end: null });
      await store().periods.upsert({ entityId: 'fresh', name: 'Freshman year', start: T0, end: T0 + 300 * DAY });

      expect(await store().periods.get('fresh')).toEqual({
        entityId: 'fresh',
        name: 'Freshman year',
        start: T0,
        end: T0 + 300 * DAY,
      });
      expect(await store().periods.get('nope')).toBeNull();
      expect((await store().periods.list()).map((p) => p.entityId)).toEqual(['fresh', 'soph']);
    });
  });

  describe('procedures', () => {
    const store = useFreshStore(factory);

    it('upserts by id and lists the most observed first, by domain', async () => {
      const weekly = {
        id: 'p1',
        description: 'Plans the week on Sunday',
        pattern: ['review calendar', 'set three goals'],
        evidence: ['chatgpt:a', 'chatgpt:b'],
        timesObserved: 2,
        firstObserved: T0,
        lastObserved: T0 + 7 * DAY,
        domain: 'planning',
        confidence: 0.6,
      };
      await store().procedures.upsert(weekly);
      await store().procedures.upsert({ ...weekly, id: 'p2', domain: 'coding', timesObserved: 5 });
      await store().procedures.upsert({ ...weekly, id: 'p3', domain: null, timesObserved: 1 });
      expect((await store().procedures.list()).map((p) => p.id)).toEqual(['p2', 'p1', 'p3']);

      const updated = { ...weekly, timesObserved: 9, pattern: ['a', 'b', 'c'], lastObserved: T0 + 14 * DAY };
      await store().procedures.upsert(updated);
      expect(await store().procedures.list({ domain: 'planning' })).toEqual([updated]);
      expect((await store().procedures.list()).map((p) => p.id)).toEqual(['p1', 'p2', 'p3']);
    });
  });
}
