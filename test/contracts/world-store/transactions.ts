import { describe, expect, it } from 'vitest';
import type { WorldStore } from '../../../src/ports/world-store.js';
import { T0, addEntity, addEpisode, tick, useFreshStore, type StoreFactory } from './fixtures.js';

const COUNTER = 'counter';

async function readCounter(store: WorldStore): Promise<number> {
  const entry = await store.llmCache.get(COUNTER);
  return entry ? Number(entry.response) : 0;
}

async function writeCounter(store: WorldStore, value: number): Promise<void> {
  await store.llmCache.put({
    key: COUNTER,
    model: 'none',
    prompt: '',
    response: String(value),
    tokensIn: 0,
    tokensOut: 0,
    createdAt: T0,
  });
}

/** Resolves when `open()` is called: lets a test pause a transaction at a known point. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

export function describeTransactions(factory: StoreFactory): void {
  describe('transactions', () => {
    const store = useFreshStore(factory);

    it('commits what the callback wrote and returns its value', async () => {
      const result = await store().transaction(async (tx) => {
        await addEpisode(tx, { externalId: 'a' });
        await addEntity(tx, 'e1');
        expect(await tx.episodes.count()).toBe(1);
        return 42;
      });
      expect(result).toBe(42);
      expect(await store().episodes.count()).toBe(1);
      expect(await store().entities.get('e1')).not.toBeNull();
    });

    it('rolls everything back when the callback throws, and rethrows the same error', async () => {
      await addEpisode(store(), { externalId: 'before' });
      const failure = new Error('boom');
      await expect(
        store().transaction(async (tx) => {
          await addEpisode(tx, { externalId: 'inside' });
          await addEntity(tx, 'e1');
          await tx.episodes.setExtraction({ ids: ['chatgpt:before'], status: 'extracted' });
          await tick();
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await store().episodes.get('chatgpt:inside')).toBeNull();
      expect(await store().entities.get('e1')).toBeNull();
      expect((await store().episodes.get('chatgpt:before'))?.extraction).toBe('pending');
      expect(await store().search.turns({ text: 'hello' })).toHaveLength(1);
    });

    it('runs a nested transaction inside the outer one; an inner failure undoes only its own writes', async () => {
      await store().transaction(async (tx) => {
        await addEntity(tx, 'outer');
        await expect(
          tx.transaction(async (inner) => {
            await addEntity(inner, 'inner-failed');
            throw new Error('inner');
          }),
        ).rejects.toThrow('inner');
        await tx.transaction(async (inner) => {
          await addEntity(inner, 'inner-ok');
        });
      });
      expect(await store().entities.get('outer')).not.toBeNull();
      expect(await store().entities.get('inner-ok')).not.toBeNull();
      expect(await store().entities.get('inner-failed')).toBeNull();

      await expect(
        store().transaction(async (tx) => {
          await tx.transaction(async (inner) => {
            await addEntity(inner, 'nested-then-outer-fails');
          });
          throw new Error('outer');
        }),
      ).rejects.toThrow('outer');
      expect(await store().entities.get('nested-then-outer-fails')).toBeNull();
    });

    it('serializes concurrent transactions (read-modify-write stays consistent)', async () => {
      const increment = (): Promise<void> =>
        store().transaction(async (tx) => {
          const value = await readCounter(tx);
          await tick(2);
          await writeCounter(tx, value + 1);
        });
      await Promise.all(Array.from({ length: 8 }, increment));
      expect(await readCounter(store())).toBe(8);
    });

    it('makes callers of the store wait for a running transaction instead of joining it', async () => {
      const paused = gate();
      const started = gate();
      const tx = store().transaction(async (t) => {
        await addEntity(t, 'in-tx');
        started.open();
        await paused.wait;
        throw new Error('roll back');
      });
      await started.wait;
      const outside = addEntity(store(), 'outside');
      await tick();
      paused.open();
      await expect(tx).rejects.toThrow('roll back');
      await outside;
      expect(await store().entities.get('in-tx')).toBeNull();
      expect(await store().entities.get('outside')).not.toBeNull();
    });

    it('refuses to use a transaction handle after its transaction ended', async () => {
      let leaked: WorldStore | undefined;
      await store().transaction(async (tx) => {
        leaked = tx;
        await tx.episodes.count();
      });
      await expect(leaked?.episodes.count()).rejects.toBeInstanceOf(Error);
    });
  });
}
