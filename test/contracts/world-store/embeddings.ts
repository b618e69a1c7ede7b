import { describe, expect, it } from 'vitest';
import type { EmbeddingOwner, StoredEmbedding } from '../../../src/ports/world-store.js';
import { T0, addEntity, addEpisode, transition, useFreshStore, type StoreFactory } from './fixtures.js';

/** Values that a lossy or misaligned float conversion would change. */
const AWKWARD = [0.1, -0, 1 / 3, 3.4028234663852886e38, 1.401298464324817e-45, -1e-7, Infinity, -Infinity, 123456.789];

function vector(values: number[]): Float32Array {
  return Float32Array.from(values);
}

export function describeEmbeddings(factory: StoreFactory): void {
  describe('embeddings', () => {
    const store = useFreshStore(factory);
    const put = (ownerKind: EmbeddingOwner, ownerId: string, model: string, values: Float32Array) =>
      store().embeddings.put({ ownerKind, ownerId, model, vector: values, createdAt: T0 });

    it('round-trips Float32Array values bit for bit', async () => {
      await addEntity(store(), 'e1');
      const original = vector([...AWKWARD, NaN]);
      await put('entity', 'e1', 'fake-8', original);
      const [stored] = await store().embeddings.all({ ownerKind: 'entity', model: 'fake-8' });
      expect(stored?.vector).toBeInstanceOf(Float32Array);
      expect(stored?.vector.length).toBe(original.length);
      expect(new Uint8Array(stored?.vector.buffer ?? new ArrayBuffer(0))).toEqual(new Uint8Array(original.buffer));
      expect(Object.is(stored?.vector[1], -0)).toBe(true);
      expect(stored).toMatchObject({ ownerKind: 'entity', ownerId: 'e1', model: 'fake-8' });
    });

    it('stores only the view of a Float32Array that starts inside a larger buffer', async () => {
      const backing = new Float32Array([9, 9, 1.5, 2.5, 3.5, 9]);
      const view = new Float32Array(backing.buffer, 2 * 4, 3);
      await put('episode', 'x', 'm', view);
      const [stored] = await store().embeddings.all({ ownerKind: 'episode', model: 'm' });
      expect(Array.from(stored?.vector ?? [])).toEqual([1.5, 2.5, 3.5]);
      // The returned vector owns its memory: changing it changes nothing stored.
      if (stored) stored.vector[0] = 100;
      expect((await store().embeddings.all({ ownerKind: 'episode', model: 'm' }))[0]?.vector[0]).toBe(1.5);
    });

    it('replaces by owner and model, keeps models and kinds apart, lists in owner id order', async () => {
      await put('entity', 'b', 'small', vector([1, 2]));
      await put('entity', 'a', 'small', vector([3, 4]));
      await put('entity', 'a', 'large', vector([5, 6, 7]));
      await put('transition', 'a', 'small', vector([8, 9]));
      await put('entity', 'b', 'small', vector([10, 11, 12])); // replaced, with other dimensions

      const small = await store().embeddings.all({ ownerKind: 'entity', model: 'small' });
      expect(small.map((e: StoredEmbedding) => [e.ownerId, Array.from(e.vector)])).toEqual([
        ['a', [3, 4]],
        ['b', [10, 11, 12]],
      ]);
      expect(await store().embeddings.count({ ownerKind: 'entity', model: 'small' })).toBe(2);
      expect(await store().embeddings.count({ ownerKind: 'entity', model: 'large' })).toBe(1);
      expect(await store().embeddings.count({ ownerKind: 'transition', model: 'small' })).toBe(1);
      expect(await store().embeddings.count({ ownerKind: 'episode', model: 'small' })).toBe(0);
      expect(await store().embeddings.all({ ownerKind: 'episode', model: 'small' })).toEqual([]);
    });

    it('lists existing owners without a vector of the model, by id, limited', async () => {
      for (const id of ['c', 'a', 'd', 'b']) await addEntity(store(), id);
      const ep1 = await addEpisode(store(), { externalId: 'one' });
      const ep2 = await addEpisode(store(), { externalId: 'two' });
      await store().transitions.insert(transition('t1', 'a'));
      await store().transitions.insert(transition('t2', 'b'));

      await put('entity', 'b', 'm1', vector([1]));
      await put('entity', 'c', 'm2', vector([1])); // another model does not count
      await put('entity', 'ghost', 'm1', vector([1])); // no such entity: never listed
      await put('episode', ep2, 'm1', vector([1]));

      expect(await store().embeddings.missing({ ownerKind: 'entity', model: 'm1', limit: 10 })).toEqual([
        'a',
        'c',
        'd',
      ]);
      expect(await store().embeddings.missing({ ownerKind: 'entity', model: 'm1', limit: 2 })).toEqual(['a', 'c']);
      expect(await store().embeddings.missing({ ownerKind: 'entity', model: 'm2', limit: 10 })).toEqual([
        'a',
        'b',
        'd',
      ]);
      expect(await store().embeddings.missing({ ownerKind: 'episode', model: 'm1', limit: 10 })).toEqual([ep1]);
      expect(await store().embeddings.missing({ ownerKind: 'transition', model: 'm1', limit: 10 })).toEqual([
        't1',
        't2',
      ]);
      expect(await store().embeddings.missing({ ownerKind: 'entity', model: 'm1', limit: 0 })).toEqual([]);
    });

    it('deletes the vectors of every other model', async () => {
      await put('entity', 'a', 'old', vector([1]));
      await put('episode', 'b', 'old', vector([1]));
      await put('entity', 'a', 'new', vector([2]));
      expect(await store().embeddings.deleteOtherModels('new')).toBe(2);
      expect(await store().embeddings.count({ ownerKind: 'entity', model: 'old' })).toBe(0);
      expect(await store().embeddings.count({ ownerKind: 'entity', model: 'new' })).toBe(1);
      expect(await store().embeddings.deleteOtherModels('new')).toBe(0);
    });

    it('rejects invalid input', async () => {
      const bad = (input: Partial<Parameters<ReturnType<typeof store>['embeddings']['put']>[0]>) =>
        store().embeddings.put({
          ownerKind: 'entity',
          ownerId: 'a',
          model: 'm',
          vector: vector([1]),
          createdAt: T0,
          ...input,
        });
      await expect(bad({ vector: new Float32Array(0) })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(bad({ vector: [1, 2] as unknown as Float32Array })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
      await expect(bad({ model: ' ' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(bad({ ownerKind: 'turn' as EmbeddingOwner })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(
        store().embeddings.missing({ ownerKind: 'turn' as EmbeddingOwner, model: 'm', limit: 1 }),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(store().embeddings.missing({ ownerKind: 'entity', model: 'm', limit: -1 })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
      expect(await store().embeddings.count({ ownerKind: 'entity', model: 'm' })).toBe(0);
    });
  });
}
