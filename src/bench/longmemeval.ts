import { isObject, stringField } from '../import/common.js';
import { longmemevalQuestionToConversations } from '../import/longmemeval.js';
import { parseLongMemEvalDate } from '../import/times.js';
import { buildQueryContext } from '../query/ask.js';
import { createBaseline, type Ranking } from './chunks.js';
import { afterLast } from './locomo.js';
import { MetricTable, ndcgAt, recallAt } from './metrics.js';
import { pieRankings } from './pie-ranking.js';
import { remaining, type RetrievalOptions } from './retrieval-options.js';
import { buildWorld } from './world.js';

export const LONGMEMEVAL_TYPES = [
  'single-session-user',
  'single-session-assistant',
  'single-session-preference',
  'knowledge-update',
  'temporal-reasoning',
  'multi-session',
  'all',
];

export interface LongMemEvalQuestion {
  id: string;
  type: string;
  question: string;
  answer: string;
  date: string;
  answerSessionIds: string[];
  /** Ids ending in `_abs`: the answer is not in the history; the model should say so. */
  abstention: boolean;
}

export function longmemevalQuestion(raw: unknown): LongMemEvalQuestion | null {
  if (!isObject(raw)) return null;
  const id = stringField(raw, 'question_id');
  if (!id) return null;
  const answer = raw.answer;
  return {
    id,
    type: stringField(raw, 'question_type') ?? 'unknown',
    question: stringField(raw, 'question') ?? '',
    answer: answer === undefined || answer === null ? '' : String(answer),
    date: stringField(raw, 'question_date') ?? '',
    answerSessionIds: Array.isArray(raw.answer_session_ids)
      ? raw.answer_session_ids.filter((s): s is string => typeof s === 'string')
      : [],
    abstention: id.endsWith('_abs'),
  };
}

export interface LongMemEvalRetrievalResult {
  table: MetricTable;
  questions: number;
  /** Abstention questions: their answer is in no session, so they have no retrieval target and are left out. */
  abstentionSkipped: number;
  /** Mean haystack sessions per scored question (how hard ranking is: with 1–3 sessions everything is evidence). */
  meanSessions: number;
  failures: { question: string; reason: string }[];
  tokens: number;
}

/**
 * LongMemEval retrieval: per question one world of its haystack; session recall@k and NDCG@k against
 * answer_session_ids, for the BM25 baseline and PIE, grouped by question type and "all".
 */
export async function runLongMemEvalRetrieval(
  raws: readonly unknown[],
  options: RetrievalOptions,
): Promise<LongMemEvalRetrievalResult> {
  const chosen = options.limit === undefined ? raws : raws.slice(0, options.limit);
  const table = new MetricTable();
  table.declare(LONGMEMEVAL_TYPES);
  const failures: LongMemEvalRetrievalResult['failures'] = [];
  let abstentionSkipped = 0;
  let scored = 0;
  let sessions = 0;
  let tokens = 0;
  let done = 0;
  for (const raw of chosen) {
    done += 1;
    const q = longmemevalQuestion(raw);
    if (!q) continue;
    if (q.abstention || q.answerSessionIds.length === 0) {
      abstentionSkipped += 1;
      continue;
    }
    options.onProgress?.({ phase: 'ingest', label: q.id, done, total: chosen.length });
    const conversations = longmemevalQuestionToConversations(raw, options.tz);
    const world = await buildWorld({
      conversations,
      extraction: options.extraction,
      openStore: options.openStore,
      tz: options.tz,
      label: q.id,
      budgetTokens: remaining(options.budgetTokens, tokens),
    });
    tokens += world.ingest.usage.inputTokens + world.ingest.usage.outputTokens;
    try {
      const now = parseLongMemEvalDate(q.date, options.tz) ?? afterLast(conversations);
      let pie: Ranking = { turns: [], sessions: [] };
      let pieTurns: Ranking = pie;
      try {
        const context = await buildQueryContext({
          store: world.store,
          question: q.question,
          now,
          tz: options.tz,
          format: 'auto',
          embedder: options.extraction.embedder,
        });
        ({ all: pie, turnsOnly: pieTurns } = await pieRankings({ world, context }));
      } catch (error) {
        failures.push({ question: q.id, reason: error instanceof Error ? error.message : String(error) });
      }
      const baseline = createBaseline(conversations, options.chunkTurns)(q.question);
      const score = (r: Ranking): Record<string, number> => {
        const out: Record<string, number> = {};
        for (const k of options.ks) {
          out[`session_recall@${k}`] = recallAt(r.sessions, q.answerSessionIds, k);
          out[`session_ndcg@${k}`] = ndcgAt(r.sessions, q.answerSessionIds, k);
        }
        return out;
      };
      for (const group of [q.type, 'all']) {
        table.add(group, 'bm25', score(baseline));
        table.add(group, 'pie', score(pie));
        table.add(group, 'pie_turns', score(pieTurns));
      }
      scored += 1;
      sessions += conversations.length;
    } finally {
      await world.close();
    }
  }
  return {
    table,
    questions: scored,
    abstentionSkipped,
    meanSessions: scored === 0 ? 0 : sessions / scored,
    failures,
    tokens,
  };
}
