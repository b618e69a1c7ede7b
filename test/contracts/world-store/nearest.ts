import { beforeEach, describe, expect, it } from 'vitest';
import type { EmbeddingOwner, NearestHit, WorldStore } from '../../../src/ports/world-store.js';
import { T0, useFreshStore, type StoreFactory } from './fixtures.js';

/** A fixed pseudo-random sequence (mulberry32), so every adapter sees the same vectors. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The test's own exact cosine ranking (float32 values, as stored), independent of the code under test. */
function bruteForce(query: number[], vectors: Map<string, Float32Array>, limit: number): string[] {
  const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0));
  return [...vectors]
    .map(([id, v]) => ({
      id,
      score: Array.from(v).reduce((s, x, i) => s + x * (query[i] ?? 0), 0) / norm(v) / norm(query),
    }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, limit)
    .map((h) => h.id);
}

const ids = (hits: NearestHit[]): string[] => hits.map((h) => h.ownerId);

/** Entity vectors of another model, in the sizes the tests use, stored before each test of the crowded run. */
const CROWD = 300;

/**
 * `embeddings.nearest`: cosine similarity, best first, ties by owner id, one kind, model and vector size at a time.
 * Every test runs twice: alone, and among CROWD entity vectors of another model for each size it uses. On PostgreSQL
 * with pgvector the planner answers the small sets with a sort on the server, the crowded ones (and the test with a
 * few hundred vectors) through the HNSW index, where the other model's vectors must be filtered out.
 */
export function describeNearest(factory: StoreFactory): void {
  describe.each([0, CROWD])('embeddings.nearest (%i vectors of another model)', (crowd) => {
    const store = useFreshStore(factory);
    beforeEach(async () => {
      if (crowd === 0) return;
      const next = random(7);
      await store().transaction(async (tx) => {
        for (const dims of [2, 3]) {
          for (let i = 0; i < crowd; i++) {
            const values = Array.from({ length: dims }, () => next() * 2 - 1);
            await put('entity', `crowd-${dims}-${i}`, values, 'crowd', tx);
          }
        }
      });
    });
    const put = (ownerKind: EmbeddingOwner, ownerId: string, values: number[], model = 'm', s: WorldStore = store()) =>
      s.embeddings.put({ ownerKind, ownerId, model, vector: Float32Array.from(values), createdAt: T0 });
    const nearest = (vector: number[], limit: number, ownerKind: EmbeddingOwner = 'entity', model = 'm') =>
      store().embeddings.nearest({ ownerKind, model, vector, limit });

    it('orders by cosine similarity, best first, with its score, and keeps `limit`', async () => {
      await put('entity', 'a', [1, 0, 0]);
      await put('entity', 'b', [1, 1, 0]);
      await put('entity', 'c', [0, 1, 0]);
      await put('entity', 'd', [-1, 0, 0]);
      await put('entity', 'e', [2, 0.2, 0]);
      const all = await nearest([3, 0, 0], 10);
      expect(ids(all)).toEqual(['a', 'e', 'b', 'c', 'd']);
      const expected = [1, 2 / Math.sqrt(4.04), Math.SQRT1_2, 0, -1];
      all.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i] ?? Number.NaN, 6));
      expect(ids(await nearest([3, 0, 0], 2))).toEqual(['a', 'e']);
      expect(ids(await nearest([0, -1, 0], 1))).toEqual(['a']); // every score is ≤ 0 here: still the best first
      expect(await nearest([3, 0, 0], 0)).toEqual([]);
    });

    it('breaks equal scores by owner id, also at the limit', async () => {
      for (const id of ['z', 'm2', 'b2', 'k']) await put('entity', id, [0.5, 0.5, 0.5]);
      await put('entity', 'best', [1, 1, 1.01]);
      expect(ids(await nearest([1, 1, 1.01], 10))).toEqual(['best', 'b2', 'k', 'm2', 'z']);
      expect(ids(await nearest([1, 1, 1.01], 3))).toEqual(['best', 'b2', 'k']);
    });

    it('compares one owner kind and one model at a time', async () => {
      await put('entity', 'ent', [1, 0]);
      await put('episode', 'epi', [1, 0]);
      await put('transition', 'tra', [1, 0]);
      await put('entity', 'other-model', [1, 0], 'm-old');
      expect(ids(await nearest([1, 0], 10, 'entity'))).toEqual(['ent']);
      expect(ids(await nearest([1, 0], 10, 'episode'))).toEqual(['epi']);
      expect(ids(await nearest([1, 0], 10, 'transition'))).toEqual(['tra']);
      expect(ids(await nearest([1, 0], 10, 'entity', 'm-old'))).toEqual(['other-model']);
      expect(await nearest([1, 0], 10, 'entity', 'no-such-model')).toEqual([]);
    });

    it('leaves out vectors of another size, of norm zero or with NaN or infinity; such a query finds nothing', async () => {
      await put('entity', 'two', [1, 0]);
      await put('entity', 'three', [1, 0, 0]);
      await put('entity', 'longer', [1, 0, 0, 0]);
      await put('entity', 'zero', [0, 0, 0]);
      await put('entity', 'nan', [1, Number.NaN, 0]);
      await put('entity', 'inf', [Number.POSITIVE_INFINITY, 0, 0]);
      expect(ids(await nearest([1, 0, 0], 10))).toEqual(['three']);
      expect(ids(await nearest([1, 0], 10))).toEqual(['two']);
      expect(await nearest([0, 0, 0], 10)).toEqual([]);
      expect(await nearest([Number.NaN, 0, 0], 10)).toEqual([]);
      expect(await nearest([1, 0, 0, 0, 0], 10)).toEqual([]);
    });

    it('sees replaced vectors and those written in the running transaction', async () => {
      await put('entity', 'a', [1, 0]);
      await put('entity', 'b', [0, 1]);
      await put('entity', 'a', [-1, 0]); // replaced
      expect(ids(await nearest([1, 0.1], 1))).toEqual(['b']);
      await store().transaction(async (tx) => {
        await put('entity', 'c', [1, 0.1], 'm', tx);
        expect(
          ids(await tx.embeddings.nearest({ ownerKind: 'entity', model: 'm', vector: [1, 0.1], limit: 1 })),
        ).toEqual(['c']);
      });
      expect(ids(await nearest([1, 0.1], 3))).toEqual(['c', 'b', 'a']);
    });

    it('agrees with a brute-force ranking on a few hundred vectors of two kinds', async () => {
      const next = random(18);
      const entities = new Map<string, Float32Array>();
      await store().transaction(async (tx) => {
        for (let i = 0; i < 300; i++) {
          const values = Array.from({ length: 16 }, () => next() * 2 - 1);
          const kind: EmbeddingOwner = i % 3 === 0 ? 'episode' : 'entity';
          const id = `o${String(i).padStart(3, '0')}`;
          if (kind === 'entity') entities.set(id, Float32Array.from(values));
          await put(kind, id, values, 'm', tx);
        }
      });
      for (let q = 0; q < 5; q++) {
        const query = Array.from({ length: 16 }, () => next() * 2 - 1);
        const hits = await nearest(query, 10);
        // Only entities: the episodes (a third of the vectors) never take an entity's place.
        expect(ids(hits)).toEqual(bruteForce(query, entities, 10));
      }
    });

    it('rejects an empty query vector, an unknown kind and a bad limit', async () => {
      await expect(nearest([], 3)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(nearest([1], 3, 'turn' as EmbeddingOwner)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(nearest([1], -1)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(nearest([1], 1.5)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });
  });
}
