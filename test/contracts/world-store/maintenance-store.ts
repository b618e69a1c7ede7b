import { describe, expect, it } from 'vitest';
import { isPieError } from '../../../src/domain/errors.js';
import { aliasRowId, mentionRowId, type MaintainedTable } from '../../../src/ports/maintenance-store.js';
import { addEntity, addEpisode, relationship, T0, transition, useFreshStore, type StoreFactory } from './fixtures.js';

export function describeMaintenanceStore(factory: StoreFactory): void {
  describe('upkeep (maintenance store)', () => {
    const store = useFreshStore(factory);

    it('lists graph nodes with transition counts (maintenance records left out), and current edges between distinct entities', async () => {
      const s = store();
      await addEntity(s, 'b', { type: 'tool', importance: 0.4 });
      await addEntity(s, 'a', { lastSeen: T0 + 5 });
      await addEntity(s, 'c');
      await s.entities.update('c', { accessCount: 3, tier: 'summarized', protected: true, updatedAt: T0 });
      await s.transitions.insert(transition('t1', 'a'));
      await s.transitions.insert(transition('t2', 'a'));
      await s.transitions.insert(transition('t3', 'a', { kind: 'summary' }));
      await s.transitions.insert(transition('t4', 'a', { kind: 'archival' }));
      await s.relationships.insert(relationship('r1', 'a', 'b'));
      await s.relationships.insert(relationship('r2', 'b', 'c', { validTo: T0 + 1 }));
      await s.relationships.insert(relationship('r3', 'c', 'c'));
      expect(await s.upkeep.graphNodes()).toEqual([
        {
          id: 'a',
          type: 'project',
          lastSeen: T0 + 5,
          accessCount: 0,
          importance: 0.5,
          tier: 'active',
          protected: false,
          transitions: 2,
        },
        {
          id: 'b',
          type: 'tool',
          lastSeen: T0,
          accessCount: 0,
          importance: 0.4,
          tier: 'active',
          protected: false,
          transitions: 0,
        },
        {
          id: 'c',
          type: 'project',
          lastSeen: T0,
          accessCount: 3,
          importance: 0.5,
          tier: 'summarized',
          protected: true,
          transitions: 0,
        },
      ]);
      expect(await s.upkeep.graphEdges()).toEqual([{ sourceId: 'a', targetId: 'b' }]);
      // Ended links too (micro dreams), each pair once.
      await s.relationships.insert(relationship('r4', 'a', 'b', { type: 'USES' }));
      expect(await s.upkeep.linkedPairs()).toEqual([
        { sourceId: 'a', targetId: 'b' },
        { sourceId: 'b', targetId: 'c' },
      ]);
    });

    it('reads a raw row and puts it back exactly after changes through the repositories', async () => {
      const s = store();
      await addEntity(s, 'a', { state: { stage: 'idea' } });
      await s.entities.addAlias({ entityId: 'a', alias: 'Alpha', normalized: 'alpha', recordedAt: T0 });
      await s.transitions.insert(transition('t1', 'a'));
      const before = await s.upkeep.getRow({ table: 'entities', id: 'a' });
      expect(before).toMatchObject({ id: 'a', importance: 0.5, tier: 'active', version: 1 });
      await s.entities.update('a', { importance: 0.9, tier: 'archived', updatedAt: T0 + 9 });
      await s.upkeep.putRow({ table: 'entities', id: 'a', row: before });
      expect(await s.upkeep.getRow({ table: 'entities', id: 'a' })).toEqual(before);
      // An update in place: rows hanging off the entity survive.
      expect((await s.entities.get('a'))?.aliases).toEqual(['Alpha']);
      expect(await s.transitions.forEntity('a')).toHaveLength(1);
    });

    it('deletes with row null and re-inserts a deleted row as it was', async () => {
      const s = store();
      await addEntity(s, 'a');
      await s.transitions.insert(transition('t1', 'a', { summary: 'pivot to research' }));
      const row = await s.upkeep.getRow({ table: 'transitions', id: 't1' });
      await s.upkeep.putRow({ table: 'transitions', id: 't1', row: null });
      expect(await s.upkeep.getRow({ table: 'transitions', id: 't1' })).toBeNull();
      expect(await s.search.transitions({ text: 'pivot' })).toEqual([]);
      await s.upkeep.putRow({ table: 'transitions', id: 't1', row });
      expect(await s.upkeep.getRow({ table: 'transitions', id: 't1' })).toEqual(row);
      expect((await s.search.transitions({ text: 'pivot' })).map((h) => h.transitionId)).toEqual(['t1']);
      expect(await s.upkeep.getRow({ table: 'procedures', id: 'nope' })).toBeNull();
    });

    it('addresses alias rows by entity id and normalized form: moved to another entity and back exactly', async () => {
      const s = store();
      await addEntity(s, 'a', { name: 'Tidepool' });
      await addEntity(s, 'b', { name: 'Tidepool app' });
      await s.entities.addAlias({ entityId: 'b', alias: 'TP', normalized: 'tp', recordedAt: T0 + 3 });
      const id = aliasRowId('b', 'tp');
      expect(id).toBe('b\u001ftp');
      const row = await s.upkeep.getRow({ table: 'entity_aliases', id });
      expect(row).toEqual({ entity_id: 'b', alias: 'TP', normalized: 'tp', recorded_at: T0 + 3 });
      // Move: delete from b, insert on a (key columns come from the id, whatever the row says).
      await s.upkeep.putRow({ table: 'entity_aliases', id, row: null });
      await s.upkeep.putRow({ table: 'entity_aliases', id: aliasRowId('a', 'tp'), row });
      expect(await s.upkeep.getRow({ table: 'entity_aliases', id })).toBeNull();
      expect((await s.entities.get('a'))?.aliases).toEqual(['TP']);
      expect((await s.entities.get('b'))?.aliases).toEqual([]);
      expect((await s.entities.findByKey('tp')).map((e) => e.id)).toEqual(['a']);
      expect((await s.search.entities({ text: 'TP' })).map((h) => h.entityId)).toEqual(['a']);
      expect(await s.upkeep.entityRows({ table: 'entity_aliases', entityId: 'a' })).toEqual([
        { id: aliasRowId('a', 'tp'), row: { ...row, entity_id: 'a' } },
      ]);
      // And back, as an undo would.
      await s.upkeep.putRow({ table: 'entity_aliases', id: aliasRowId('a', 'tp'), row: null });
      await s.upkeep.putRow({ table: 'entity_aliases', id, row });
      expect(await s.upkeep.getRow({ table: 'entity_aliases', id })).toEqual(row);
      expect((await s.search.entities({ text: 'TP' })).map((h) => h.entityId)).toEqual(['b']);
      // An update in place keeps the key.
      await s.upkeep.putRow({ table: 'entity_aliases', id, row: { ...row, alias: 'T.P.' } });
      expect((await s.entities.get('b'))?.aliases).toEqual(['T.P.']);
    });

    it('addresses mention rows by entity id and episode id', async () => {
      const s = store();
      await addEntity(s, 'a');
      await addEntity(s, 'b');
      const ep = await addEpisode(s, { externalId: 'c1' });
      await s.mentions.add({ entityId: 'b', episodeId: ep, time: T0 + 7 });
      const id = mentionRowId('b', ep);
      const row = await s.upkeep.getRow({ table: 'entity_mentions', id });
      expect(row).toEqual({ entity_id: 'b', episode_id: ep, time: T0 + 7 });
      expect(await s.upkeep.entityRows({ table: 'entity_mentions', entityId: 'b' })).toEqual([{ id, row }]);
      await s.upkeep.putRow({ table: 'entity_mentions', id, row: null });
      await s.upkeep.putRow({ table: 'entity_mentions', id: mentionRowId('a', ep), row: { time: T0 + 7 } });
      expect(await s.mentions.forEpisode(ep)).toEqual([{ entityId: 'a', episodeId: ep, time: T0 + 7 }]);
      await s.upkeep.putRow({ table: 'entity_mentions', id: mentionRowId('a', ep), row: null });
      await s.upkeep.putRow({ table: 'entity_mentions', id, row });
      expect(await s.upkeep.getRow({ table: 'entity_mentions', id })).toEqual(row);
      expect(await s.mentions.forEpisode(ep)).toEqual([{ entityId: 'b', episodeId: ep, time: T0 + 7 }]);
    });

    it('an entity merged into another (merged_into set) leaves findByKey, the graph and excludeMerged lists', async () => {
      const s = store();
      await addEntity(s, 'js', { name: 'JS', normalizedName: 'js' });
      await addEntity(s, 'javascript', { name: 'JavaScript', normalizedName: 'javascript' });
      await s.entities.addAlias({ entityId: 'javascript', alias: 'JS', normalized: 'js', recordedAt: T0 });
      expect((await s.entities.findByKey('js')).map((e) => e.id).sort()).toEqual(['javascript', 'js']);
      const row = await s.upkeep.getRow({ table: 'entities', id: 'js' });
      await s.upkeep.putRow({ table: 'entities', id: 'js', row: { ...row, merged_into: 'javascript' } });
      expect((await s.entities.findByKey('js')).map((e) => e.id)).toEqual(['javascript']);
      expect((await s.upkeep.graphNodes()).map((n) => n.id)).toEqual(['javascript']);
      expect((await s.entities.list({ excludeMerged: true })).map((e) => e.id)).toEqual(['javascript']);
      expect((await s.entities.list()).map((e) => e.id).sort()).toEqual(['javascript', 'js']);
    });

    it('refuses a composite row id with the wrong number of parts', async () => {
      const s = store();
      await addEntity(s, 'a');
      await expect(s.upkeep.getRow({ table: 'entity_aliases', id: 'a' })).rejects.toSatisfy((e) =>
        isPieError(e, 'INVALID_ARGUMENT'),
      );
      await expect(
        s.upkeep.putRow({ table: 'entity_mentions', id: 'a\u001fb\u001fc', row: { time: 1 } }),
      ).rejects.toSatisfy((e) => isPieError(e, 'INVALID_ARGUMENT'));
    });

    it('refuses unknown tables and columns', async () => {
      const s = store();
      await addEntity(s, 'a');
      const bad = 'episodes; DROP TABLE entities' as MaintainedTable;
      await expect(s.upkeep.getRow({ table: bad, id: 'a' })).rejects.toSatisfy((e) =>
        isPieError(e, 'INVALID_ARGUMENT'),
      );
      await expect(s.upkeep.putRow({ table: 'entities', id: 'a', row: { 'tier = 1; --': 1 } })).rejects.toSatisfy((e) =>
        isPieError(e, 'INVALID_ARGUMENT'),
      );
      expect(await s.entities.get('a')).not.toBeNull();
    });
  });
}
