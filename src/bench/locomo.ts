import type { Conversation } from '../domain/conversation.js';
import { isObject, stringField } from '../import/common.js';
import { locomoSampleToConversations } from '../import/locomo.js';
import { buildQueryContext } from '../query/ask.js';
import { createBaseline, type Ranking } from './chunks.js';
import { emptyEvidenceReport, normalizeEvidence, type EvidenceReport } from './evidence.js';
import { MetricTable, recallAt } from './metrics.js';
import { pieRankings } from './pie-ranking.js';
import { remaining, type ProgressEvent, type RetrievalOptions } from './retrieval-options.js';
import { buildWorld } from './world.js';

export const LOCOMO_CATEGORIES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

export interface LocomoQa {
  question: string;
  category: number;
  answer: string | null;
  adversarialAnswer: string | null;
  evidence: unknown;
}

export function locomoQas(sample: unknown): LocomoQa[] {
  if (!isObject(sample) || !Array.isArray(sample.qa)) return [];
  return sample.qa.filter(isObject).map((qa) => ({
    question: stringField(qa, 'question') ?? '',
    category: typeof qa.category === 'number' ? qa.category : 0,
    answer: qa.answer === undefined || qa.answer === null ? null : String(qa.answer),
    adversarialAnswer: stringField(qa, 'adversarial_answer') ?? null,
    evidence: qa.evidence,
  }));
}

export function categoryName(category: number): string {
  return LOCOMO_CATEGORIES[category] ?? `category ${category}`;
}

/** "D3:7" → the session conversation's externalId "conv-26:session_3". */
function sessionOfDia(sampleId: string, dia: string): string {
  return `${sampleId}:session_${dia.slice(1, dia.indexOf(':'))}`;
}

export interface LocomoRetrievalResult {
  table: MetricTable;
  evidence: EvidenceReport;
  conversations: number;
  questions: number;
  /** Questions PIE's query path rejected (reported, scored as empty rankings). */
  failures: { question: string; reason: string }[];
  tokens: number;
}

/**
 * LoCoMo retrieval: per sample one world; for every question with usable evidence, evidence recall@k over dialog
 * ids (turn level) and over sessions, for the BM25 baseline and for PIE, grouped by category and "all".
 */
export async function runLocomoRetrieval(
  samples: readonly unknown[],
  options: RetrievalOptions,
): Promise<LocomoRetrievalResult> {
  const chosen = options.limit === undefined ? samples : samples.slice(0, options.limit);
  const table = new MetricTable();
  table.declare([...Object.values(LOCOMO_CATEGORIES), 'all']);
  const evidence = emptyEvidenceReport();
  const failures: LocomoRetrievalResult['failures'] = [];
  const total = chosen.reduce<number>((n, s) => n + locomoQas(s).length, 0);
  let done = 0;
  let tokens = 0;
  for (const sample of chosen) {
    const sampleId = isObject(sample) ? (stringField(sample, 'sample_id') ?? '?') : '?';
    const conversations = locomoSampleToConversations(sample, options.tz);
    const known = new Set(conversations.flatMap((c) => c.turns.flatMap((t) => (t.externalId ? [t.externalId] : []))));
    emit(options.onProgress, { phase: 'ingest', label: sampleId, done, total });
    const world = await buildWorld({
      conversations,
      extraction: options.extraction,
      openStore: options.openStore,
      tz: options.tz,
      label: sampleId,
      budgetTokens: remaining(options.budgetTokens, tokens),
    });
    tokens += world.ingest.usage.inputTokens + world.ingest.usage.outputTokens;
    try {
      const baseline = createBaseline(conversations, options.chunkTurns);
      const now = afterLast(conversations);
      for (const qa of locomoQas(sample)) {
        done += 1;
        emit(options.onProgress, { phase: 'query', label: sampleId, done, total });
        const gold = normalizeEvidence({ evidence: qa.evidence, known, report: evidence });
        if (gold.length === 0 || qa.question.trim() === '') continue;
        const goldSessions = [...new Set(gold.map((d) => sessionOfDia(sampleId, d)))];
        const score = (r: Ranking): Record<string, number> => {
          const out: Record<string, number> = {};
          for (const k of options.ks) {
            out[`turn_recall@${k}`] = recallAt(r.turns, gold, k);
            out[`session_recall@${k}`] = recallAt(r.sessions, goldSessions, k);
          }
          return out;
        };
        let pie: Ranking = { turns: [], sessions: [] };
        let pieTurns: Ranking = pie;
        try {
          const context = await buildQueryContext({
            store: world.store,
            question: qa.question,
            now,
            tz: options.tz,
            format: 'auto',
            embedder: options.extraction.embedder,
          });
          ({ all: pie, turnsOnly: pieTurns } = await pieRankings({ world, context }));
        } catch (error) {
          failures.push({ question: qa.question, reason: error instanceof Error ? error.message : String(error) });
        }
        for (const group of [categoryName(qa.category), 'all']) {
          table.add(group, 'bm25', score(baseline(qa.question)));
          table.add(group, 'pie', score(pie));
          table.add(group, 'pie_turns', score(pieTurns));
        }
      }
    } finally {
      await world.close();
    }
  }
  return { table, evidence, conversations: chosen.length, questions: done, failures, tokens };
}

/** LoCoMo questions carry no date: "now" is one day after the last session. */
export function afterLast(conversations: readonly Conversation[]): number {
  return Math.max(0, ...conversations.map((c) => c.createdAt)) + 86_400_000;
}

function emit(fn: ((e: ProgressEvent) => void) | undefined, event: ProgressEvent): void {
  fn?.(event);
}
