import { describe, expect, it } from 'vitest';
import type { WorldStore } from '../../../src/ports/world-store.js';
import { addEntity, addEpisode, T0, transition, type StoreFactory } from './fixtures.js';

/** WorldStore.revision: unchanged by reads, changed by any write, whichever connection made it. */
export function describeRevision(factory: StoreFactory): void {
  describe('revision', () => {
    async function withStore(fn: (store: WorldStore, reopen: () => Promise<WorldStore>) => Promise<void>) {
      const handle = await factory();
      try {
        await fn(handle.store, () => handle.reopen());
      } finally {
        await handle.cleanup();
      }
    }

    it('stays the same while the memory is only read', async () => {
      await withStore(async (s) => {
        await addEntity(s, 'a');
        await s.transitions.insert(transition('t1', 'a'));
        const before = await s.revision();
        await s.stats();
        await s.entities.list({});
        await s.transitions.forEntity('a');
        await s.search.entities({ text: 'a', limit: 5 });
        await s.transaction(async (tx) => {
          await tx.entities.get('a');
        });
        expect(await s.revision()).toBe(before);
      });
    });

    it('changes with every write through the store: insert, update, delete, a committed transaction', async () => {
      await withStore(async (s) => {
        const seen = [await s.revision()];
        const changed = async (): Promise<void> => {
          const now = await s.revision();
          expect(seen).not.toContain(now);
          seen.push(now);
        };
        await addEpisode(s, { externalId: 'c1' });
        await changed();
        await addEntity(s, 'a');
        await changed();
        await s.entities.update('a', { importance: 0.9, updatedAt: T0 + 1 });
        await changed();
        await s.entities.incrementAccess(['a']);
        await changed();
        await s.transaction(async (tx) => {
          await tx.transitions.insert(transition('t1', 'a'));
        });
        await changed();
        await s.llmCache.put({
          key: 'k',
          model: 'm',
          prompt: 'p',
          response: 'r',
          tokensIn: 1,
          tokensOut: 1,
          createdAt: T0,
        });
        await changed();
        expect(await s.llmCache.delete('k')).toBe(true);
        await changed();
      });
    });

    it('changes when another connection to the same memory writes', async () => {
      await withStore(async (s, reopen) => {
        const other = await reopen();
        try {
          await addEntity(s, 'a');
          const before = await s.revision();
          expect(await s.revision()).toBe(before);
          await other.entities.update('a', { importance: 0.1, updatedAt: T0 + 1 });
          expect(await s.revision()).not.toBe(before);
        } finally {
          await other.close();
        }
      });
    });
  });
}
