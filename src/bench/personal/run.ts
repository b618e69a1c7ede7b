import type { LlmClient } from '../../llm/index.js';
import type { Embedder } from '../../ports/embedder.js';
import type { PersonalQuestionSet } from '../../ports/personal-bench-store.js';
import type { Tokenizer } from '../../ports/tokenizer.js';
import type { WorldStore } from '../../ports/world-store.js';
import { buildQueryContext, DEFAULT_CONTEXT_TOKENS } from '../../query/ask.js';
import type { QuestionRecord } from './figures.js';
import { turnKey, type History } from './history.js';
import { emptyQaUsage, personalQa, type QaUsage } from './qa.js';
import {
  abstentionMetrics,
  answerableMetrics,
  bm25Shown,
  nearMisses,
  pieShown,
  pieWorld,
  staleReason,
} from './score.js';

export interface PersonalRunOptions {
  store: WorldStore;
  history: History;
  set: PersonalQuestionSet;
  ks: readonly number[];
  /** The reference "now" of every question. */
  now: number;
  tz: string;
  tokenizer: Tokenizer;
  embedder?: Embedder | undefined;
  /** Only the first N questions of the set. */
  limit?: number | undefined;
  chunkTurns: number;
  /** With a model: answers (PIE, naive_rag) judged per question. */
  model?: { client: LlmClient; judge: LlmClient; ragChunks: number } | null;
  onProgress?: (done: number, total: number, question: string) => void;
}

export interface PersonalRunResult {
  records: QuestionRecord[];
  usage: QaUsage | null;
}

/**
 * Scores every question of the set (the first `limit`): the context `pie ask --context-only` would compile for it
 * at the default budget (intent by rules, time format auto; the access counts of the world are left alone), PIE's
 * shown turns against the BM25 baseline's, and with a model the two systems' answers judged.
 */
export async function runPersonalBench(options: PersonalRunOptions): Promise<PersonalRunResult> {
  const { store, history, set, ks, now, tz } = options;
  const questions = options.limit === undefined ? set.questions : set.questions.slice(0, options.limit);
  const world = pieWorld(history, store);
  const budget = DEFAULT_CONTEXT_TOKENS;
  const baseline = bm25Shown({ history, chunkTurns: options.chunkTurns, budget, tokenizer: options.tokenizer });
  const qa = options.model
    ? personalQa({
        client: options.model.client,
        judge: options.model.judge,
        history,
        tz,
        chunkTurns: options.chunkTurns,
        ragChunks: options.model.ragChunks,
      })
    : null;
  const usage = qa ? emptyQaUsage() : null;
  const records: QuestionRecord[] = [];
  for (const [i, q] of questions.entries()) {
    options.onProgress?.(i, questions.length, q.question);
    const stale = staleReason(q, history);
    if (stale) {
      records.push({ id: q.id, kind: q.kind, status: 'stale', reason: stale });
      continue;
    }
    let context;
    try {
      context = await buildQueryContext({
        store,
        question: q.question,
        now,
        tz,
        format: 'auto',
        client: null,
        embedder: options.embedder,
        maxTokens: budget,
        tokenizer: options.tokenizer,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      records.push({ id: q.id, kind: q.kind, status: 'failed', reason });
      continue;
    }
    const pie = await pieShown({ world, context });
    const bm25 = baseline(q.question);
    const gold = q.evidence.map(turnKey);
    const misses = q.kind === 'abstention' ? nearMisses(q, set.questions) : null;
    const score = (shown: typeof pie) =>
      misses ? abstentionMetrics(shown, misses, ks) : answerableMetrics(shown, gold, ks);
    const record: QuestionRecord = { id: q.id, kind: q.kind, status: 'scored', pie: score(pie), bm25: score(bm25) };
    if (qa && usage) record.qa = await qa(q, context, now, usage);
    records.push(record);
  }
  options.onProgress?.(questions.length, questions.length, '');
  return { records, usage };
}
