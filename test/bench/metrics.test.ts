import { describe, expect, it } from 'vitest';
import { buildBm25, tokenize } from '../../src/bench/bm25.js';
import { turnChunks } from '../../src/bench/chunks.js';
import { MetricTable, ndcgAt, recallAt } from '../../src/bench/metrics.js';
import type { Conversation } from '../../src/domain/conversation.js';

describe('retrieval metrics', () => {
  it('recall@k is the share of gold ids in the first k', () => {
    expect(recallAt(['a', 'b', 'c'], ['b', 'x'], 1)).toBe(0);
    expect(recallAt(['a', 'b', 'c'], ['b', 'x'], 2)).toBe(0.5);
    expect(recallAt(['a'], [], 5)).toBe(0);
  });

  it('NDCG@k with binary relevance is 1 for an ideal ranking and discounts later hits', () => {
    expect(ndcgAt(['g1', 'g2', 'x'], ['g1', 'g2'], 3)).toBeCloseTo(1);
    expect(ndcgAt(['x', 'g1'], ['g1'], 2)).toBeCloseTo(1 / Math.log2(3));
    expect(ndcgAt(['x', 'y'], ['g1'], 2)).toBe(0);
  });

  it('averages per group and system', () => {
    const t = new MetricTable();
    t.declare(['b', 'a']);
    t.add('a', 'pie', { r: 1 });
    t.add('a', 'pie', { r: 0 });
    expect(t.mean('a', 'pie', 'r')).toBe(0.5);
    expect(t.count('a', 'pie')).toBe(2);
    expect(t.mean('b', 'pie', 'r')).toBeNull();
    expect(t.groups).toEqual(['b', 'a']);
    expect(t.toJSON()).toEqual({ a: { pie: { r: 0.5, n: 2 } } });
  });
});

describe('the BM25 baseline', () => {
  it('drops stop words and ranks the document with the rare matching word first', () => {
    expect(tokenize('What is the name of the Puppy?')).toEqual(['name', 'puppy']);
    const index = buildBm25(['the cat sat', 'a puppy named Biscuit', 'the puppy and the cat'], (d) => d);
    expect(index.search('Biscuit puppy', 2).map((h) => h.doc)).toEqual([
      'a puppy named Biscuit',
      'the puppy and the cat',
    ]);
    expect(index.search('zebra', 5)).toEqual([]);
  });

  it('chunks each session into fixed windows of turns carrying their ids', () => {
    const c: Conversation = {
      source: 'locomo',
      externalId: 's1',
      title: 't',
      createdAt: 0,
      updatedAt: 0,
      model: null,
      meta: {},
      turns: [
        { role: 'user', text: 'a', time: null, externalId: 'D1:1' },
        { role: 'assistant', text: 'b', time: null, externalId: 'D1:2' },
        { role: 'user', text: 'c', time: null },
      ],
    };
    expect(turnChunks([c], 2).map((ch) => ch.turnIds)).toEqual([['D1:1', 'D1:2'], ['s1#2']]);
  });
});
