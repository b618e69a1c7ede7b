import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runLocomoRetrieval } from '../../src/bench/locomo.js';
import { runLongMemEvalRetrieval } from '../../src/bench/longmemeval.js';
import type { RetrievalOptions } from '../../src/bench/retrieval-options.js';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { createOfflineExtractor } from '../../src/extract/offline/index.js';

const fixture = (name: string): unknown[] =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as unknown[];

const options: RetrievalOptions = {
  tz: 'UTC',
  ks: [1, 5],
  extraction: { extractor: createOfflineExtractor() },
  chunkTurns: 2,
  openStore: () => openSqliteStore({ path: ':memory:' }),
};

describe('LoCoMo retrieval benchmark (committed excerpt)', () => {
  it('scores each question with usable evidence per category for BM25 and PIE, reporting broken evidence', async () => {
    const r = await runLocomoRetrieval(fixture('locomo-mini.json'), options);
    expect(r.conversations).toBe(1);
    expect(r.questions).toBe(7);
    expect(r.evidence).toEqual({ raw: 8, repaired: 3, unparseable: 1, missing: 1, questionsWithout: 1 });
    expect(r.failures).toEqual([]);
    expect(r.table.count('all', 'pie')).toBe(6);
    expect(r.table.count('all', 'bm25')).toBe(6);
    expect(r.table.count('all', 'pie_turns')).toBe(6);
    expect(r.table.count('open-domain', 'pie')).toBe(0);
    expect(r.table.count('adversarial', 'pie')).toBe(1);
    // The puppy's name is in D1:1 and nowhere else: BM25 over 2-turn chunks finds it within 5 turns.
    expect(r.table.mean('single-hop', 'bm25', 'turn_recall@5')).toBeGreaterThan(0);
    for (const system of ['bm25', 'pie']) {
      const v = r.table.mean('all', system, 'session_recall@5');
      expect(v).not.toBeNull();
      expect(v ?? -1).toBeGreaterThanOrEqual(0);
      expect(v ?? 2).toBeLessThanOrEqual(1);
    }
  });
});

describe('LongMemEval retrieval benchmark (committed excerpt)', () => {
  it('scores session recall and NDCG per type and leaves abstention questions out', async () => {
    const r = await runLongMemEvalRetrieval(fixture('longmemeval-mini.json'), options);
    expect(r.questions).toBe(1);
    expect(r.abstentionSkipped).toBe(1);
    expect(r.meanSessions).toBe(3);
    expect(r.table.mean('single-session-user', 'bm25', 'session_recall@1')).toBe(1);
    expect(r.table.mean('single-session-user', 'bm25', 'session_ndcg@5')).toBe(1);
    expect(r.table.mean('single-session-user', 'pie', 'session_recall@5')).toBe(1);
    expect(r.table.count('temporal-reasoning', 'pie')).toBe(0);
  });

  it('--limit takes the first questions only', async () => {
    const r = await runLongMemEvalRetrieval(fixture('longmemeval-mini.json'), { ...options, limit: 1 });
    expect(r.questions + r.abstentionSkipped).toBe(1);
  });
});
