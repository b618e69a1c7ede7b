import { describe, expect, it } from 'vitest';
import { cosine, nearestByCosine } from './vectors.js';

const candidates = (entries: Record<string, number[]>) =>
  Object.entries(entries).map(([ownerId, vector]) => ({ ownerId, vector }));

describe('cosine', () => {
  it.each([
    [[1, 0], [1, 0], 1],
    [[1, 0], [0, 1], 0],
    [[1, 0], [-2, 0], -1],
    [[0, 0], [1, 0], 0],
  ])('%o · %o = %d', (a, b, expected) => {
    expect(cosine(a, b)).toBeCloseTo(expected, 12);
  });
});

describe('nearestByCosine', () => {
  it.each([
    ['best first', { a: [1, 0], b: [0, 1], c: [1, 1] }, [1, 0.1], 3, ['a', 'c', 'b']],
    ['keeps limit', { a: [1, 0], b: [0, 1], c: [1, 1] }, [1, 0.1], 1, ['a']],
    ['limit 0', { a: [1, 0] }, [1, 0], 0, []],
    ['ties by owner id', { z: [1, 1], b: [2, 2], m: [3, 3] }, [1, 1], 2, ['b', 'm']],
    ['another size is left out', { a: [1, 0, 0], b: [1, 0] }, [1, 0], 5, ['b']],
    ['norm zero is left out', { a: [0, 0], b: [-1, 0] }, [1, 0], 5, ['b']],
    ['NaN and infinity are left out', { a: [NaN, 1], b: [Infinity, 0], c: [0, 1] }, [1, 1], 5, ['c']],
    ['a zero query finds nothing', { a: [1, 0] }, [0, 0], 5, []],
    ['a NaN query finds nothing', { a: [1, 0] }, [NaN, 0], 5, []],
  ])('%s', (_name, stored, query, limit, expected) => {
    const hits = nearestByCosine({ query, candidates: candidates(stored), limit });
    expect(hits.map((h) => h.ownerId)).toEqual(expected);
  });

  it('scores exactly as cosine does', () => {
    const query = [0.3, -0.7, 0.2];
    const vector = Float32Array.from([0.1, -0.5, 0.9]);
    const [hit] = nearestByCosine({ query, candidates: [{ ownerId: 'x', vector }], limit: 1 });
    expect(hit?.score).toBe(cosine(query, vector));
  });
});
