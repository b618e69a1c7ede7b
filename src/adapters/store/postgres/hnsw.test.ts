import { describe, expect, it } from 'vitest';
import { hnswIndexName, hnswIndexSql, nearestSql, searchSettingsSql } from './hnsw.js';
import { hasIterativeScan } from './pgvector.js';

describe('HNSW SQL', () => {
  it('names one partial index per owner kind and size, and the search repeats its cast and predicate', () => {
    const key = { kind: 'episode' as const, dims: 384 };
    expect(hnswIndexName(key)).toBe('embeddings_hnsw_episode_384');
    expect(hnswIndexSql(key)).toBe(
      'CREATE INDEX IF NOT EXISTS embeddings_hnsw_episode_384 ON embeddings USING hnsw ' +
        "((embedding::vector(384)) vector_cosine_ops) WHERE dims = 384 AND owner_kind = 'episode'",
    );
    const search = nearestSql(key).replace(/\s+/g, ' ');
    expect(search).toContain("WHERE dims = 384 AND owner_kind = 'episode' AND model = @model");
    expect(search).toContain('ORDER BY embedding::vector(384) <=> @query::vector(384), owner_id LIMIT @limit');
  });

  it.each([0, -3, 1.5, Number.NaN])('refuses %d as a vector size in SQL text', (dims) => {
    expect(() => hnswIndexSql({ kind: 'entity', dims })).toThrow(RangeError);
    expect(() => nearestSql({ kind: 'entity', dims })).toThrow(RangeError);
  });

  it.each([
    [1, false, `SELECT set_config('hnsw.ef_search', '100', true)`],
    [80, false, `SELECT set_config('hnsw.ef_search', '160', true)`],
    [5000, false, `SELECT set_config('hnsw.ef_search', '1000', true)`],
    [
      10,
      true,
      `SELECT set_config('hnsw.ef_search', '100', true), set_config('hnsw.iterative_scan', 'strict_order', true)`,
    ],
  ])('limit %d, iterative scan %s', (limit, iterative, expected) => {
    expect(searchSettingsSql(limit, iterative)).toBe(expected);
  });

  it.each([
    ['0.8.1', true],
    ['0.8.0', true],
    ['0.7.4', false],
    ['0.5.1', false],
    ['1.0.0', true],
  ])('pgvector %s has iterative scans: %s', (version, expected) => {
    expect(hasIterativeScan(version)).toBe(expected);
  });
});
