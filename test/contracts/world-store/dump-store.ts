import { describe, expect, it } from 'vitest';
import { isPieError } from '../../../src/domain/errors.js';
import type { CellValue, DumpStore } from '../../../src/ports/dump-store.js';
import type { WorldStore } from '../../../src/ports/world-store.js';
import { addEntity, addEpisode, T0, transition, useFreshStore, type StoreFactory } from './fixtures.js';

async function allRows(dump: DumpStore, table: string, limit = 2): Promise<CellValue[][]> {
  const rows: CellValue[][] = [];
  let after: number | null = null;
  do {
    const page = await dump.page({ table, after, limit });
    rows.push(...page.rows);
    after = page.next;
  } while (after !== null);
  return rows;
}

async function copyAll(from: WorldStore, to: WorldStore): Promise<void> {
  await to.transaction(async (tx) => {
    // Children before parents on purpose: references are checked at commit.
    for (const table of (await from.dump.tables()).reverse()) {
      const rows = await allRows(from.dump, table.name);
      if (rows.length > 0) await tx.dump.insert({ table: table.name, columns: table.columns, rows });
    }
  });
}

async function seed(s: WorldStore): Promise<void> {
  const ep = await addEpisode(s, { externalId: 'c1', title: 'Moving to Lisbon' });
  await addEntity(s, 'lisbon', { name: 'Lisbon', type: 'place', createdFrom: ep });
  await addEntity(s, 'move', { name: 'Relocation project' });
  await s.transitions.insert(transition('t1', 'move', { summary: 'Signed the lease in Alfama', episodeId: ep }));
  await s.embeddings.put({
    ownerKind: 'entity',
    ownerId: 'lisbon',
    model: 'fake:test',
    vector: new Float32Array([0.5, -1, 2]),
    createdAt: T0,
  });
}

export function describeDumpStore(factory: StoreFactory): void {
  describe('dump (backup and restore rows)', () => {
    const store = useFreshStore(factory);

    it('lists the data tables parents first, without derived search indexes or schema bookkeeping', async () => {
      const names = (await store().dump.tables()).map((t) => t.name);
      for (const t of ['episodes', 'turns', 'entities', 'transitions', 'embeddings', 'journal', 'llm_cache']) {
        expect(names).toContain(t);
      }
      expect(names.indexOf('episodes')).toBeLessThan(names.indexOf('turns'));
      expect(names.indexOf('entities')).toBeLessThan(names.indexOf('transitions'));
      expect(names.some((n) => n.includes('fts') || n === 'schema_migrations')).toBe(false);
    });

    it('pages every row once in a stable order, and copies a world exactly into an empty store (search included)', async () => {
      const a = store();
      await seed(a);
      const handle = await factory();
      try {
        const b = handle.store;
        await copyAll(a, b);
        for (const t of await a.dump.tables()) {
          const rows = await allRows(a.dump, t.name);
          expect(await a.dump.count(t.name)).toBe(rows.length);
          expect(await allRows(b.dump, t.name, 1000), t.name).toEqual(rows);
        }
        const vec = await b.embeddings.all({ ownerKind: 'entity', model: 'fake:test' });
        expect([...(vec[0]?.vector ?? [])]).toEqual([0.5, -1, 2]);
        const hits = await b.search.transitions({ text: 'Alfama lease' });
        expect(hits.map((h) => h.transitionId)).toEqual(['t1']);
        expect((await b.search.entities({ text: 'Lisbon' }))[0]?.name).toBe('Lisbon');
        expect(await b.stats()).toEqual(await a.stats());
      } finally {
        await handle.cleanup();
      }
    });

    it('clears tables inside a transaction, and a failed transaction leaves everything as it was', async () => {
      const s = store();
      await seed(s);
      const names = (await s.dump.tables()).map((t) => t.name);
      await expect(
        s.transaction(async (tx) => {
          await tx.dump.clear(names);
          expect(await tx.dump.count('entities')).toBe(0);
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      expect(await s.dump.count('entities')).toBe(2);
      await s.transaction((tx) => tx.dump.clear(names));
      for (const n of names) expect(await s.dump.count(n), n).toBe(0);
      expect(await s.search.entities({ text: 'Lisbon' })).toEqual([]);
    });

    it('refuses unknown tables and columns, rows of the wrong width, and dangling references at commit', async () => {
      const s = store();
      const entities = (await s.dump.tables()).find((t) => t.name === 'entities');
      expect(entities).toBeDefined();
      const code = async (p: Promise<unknown>): Promise<string | undefined> => {
        try {
          await p;
          return undefined;
        } catch (error) {
          return isPieError(error) ? error.code : 'other';
        }
      };
      expect(await code(s.dump.page({ table: 'nope', after: null, limit: 5 }))).toBe('INVALID_ARGUMENT');
      expect(await code(s.dump.insert({ table: 'entities', columns: ['bogus'], rows: [[1]] }))).toBe('INVALID_DATA');
      expect(await code(s.dump.insert({ table: 'entity_aliases', columns: ['alias'], rows: [['a', 'b']] }))).toBe(
        'INVALID_DATA',
      );
      const dangling = s.transaction((tx) =>
        tx.dump.insert({
          table: 'entity_aliases',
          columns: ['entity_id', 'alias', 'normalized', 'recorded_at'],
          rows: [['missing-entity', 'X', 'x', T0]],
        }),
      );
      expect(await code(dangling)).toBeDefined();
      expect(await s.dump.count('entity_aliases')).toBe(0);
    });
  });
}
