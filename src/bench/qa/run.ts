import type { Conversation } from '../../domain/conversation.js';
import type { Usage } from '../../extract/types.js';
import type { LlmClient } from '../../llm/index.js';
import { addUsage, emptyUsage } from '../../llm/index.js';
import type { WorldStore } from '../../ports/world-store.js';
import type { TimeFormatChoice } from '../../query/types.js';
import { answerInText, contextBody, isShortAnswer } from '../context/match.js';
import { MetricTable } from '../metrics.js';
import type { ProgressEvent } from '../retrieval-options.js';
import { buildWorld, type WorldExtraction } from '../world.js';
import { naiveRagAnswerer, pieAnswerer, type Answerer, type ContextTokens } from './answerers.js';
import { JUDGE_PROMPT, judgedYes } from './judge-prompts.js';
import type { QaSystem, ResultsFile } from './results-file.js';

/** One question to answer and judge. */
export interface QaItem {
  /** Unique in the benchmark (LoCoMo "conv-26#12", LongMemEval question id). */
  key: string;
  group: string;
  question: string;
  gold: string;
  now: number;
  /** The judge's prompt text for a response (per benchmark and category rules). */
  judgeText(response: string): string;
  /**
   * The answer the answer-in-context proxy looks for in a context (docs/evaluation.md); none for a question the
   * proxy does not score (abstention, LoCoMo category 5).
   */
  proxyAnswer?: string;
}

/** A world's worth of questions: a LoCoMo conversation, a LongMemEval question's haystack. */
export interface QaUnit {
  label: string;
  conversations: Conversation[];
  items: QaItem[];
}

export interface QaOptions {
  tz: string;
  answerClient: LlmClient;
  judgeClient: LlmClient;
  extraction: WorldExtraction;
  openStore: () => Promise<WorldStore>;
  results: ResultsFile;
  format: TimeFormatChoice;
  chunkTurns: number;
  /** BM25 chunks the naive_rag baseline puts in its context. */
  ragChunks: number;
  /** Both contexts at this token budget instead (pie bench context --qa): PIE's compiled to it, naive_rag cut to it. */
  contextTokens?: ContextTokens | undefined;
  /**
   * With `contextTokens`: each record also says whether its gold answer is written in the context the model saw (the
   * answer-in-context proxy, for answers of at most this many words a part), so the proxy can be checked against
   * the judged accuracy (proxy.ts).
   */
  proxyMaxWords?: number | undefined;
  /** Stop starting questions once answers, judgements and extraction have used this many tokens. */
  budgetTokens?: number | undefined;
  systems?: readonly QaSystem[];
  onProgress?: (event: ProgressEvent) => void;
}

export interface QaSummary {
  table: MetricTable;
  usage: Record<QaSystem | 'extraction', Usage>;
  answered: number;
  skippedDone: number;
  stoppedByBudget: boolean;
}

/** Answers every question with each system, judges it, appends the result; resumes from the results file. */
export async function runQa(units: readonly QaUnit[], options: QaOptions): Promise<QaSummary> {
  const systems = options.systems ?? (['pie', 'naive_rag'] as const);
  const usage: QaSummary['usage'] = { pie: emptyUsage(), naive_rag: emptyUsage(), extraction: emptyUsage() };
  const total = units.reduce((n, u) => n + u.items.length, 0);
  let done = 0;
  let answered = 0;
  let skippedDone = 0;
  const spent = (): number => Object.values(usage).reduce((n, u) => n + u.inputTokens + u.outputTokens, 0);
  const overBudget = (): boolean => options.budgetTokens !== undefined && spent() >= options.budgetTokens;
  for (const unit of units) {
    const pending = unit.items.filter((i) => systems.some((s) => !options.results.has(s, i.key)));
    skippedDone += unit.items.length - pending.length;
    done += unit.items.length - pending.length;
    if (pending.length === 0) continue;
    if (overBudget()) return summarize(options.results, usage, answered, skippedDone, true);
    options.onProgress?.({ phase: 'ingest', label: unit.label, done, total });
    const world = await buildWorld({ ...options, conversations: unit.conversations, label: unit.label });
    usage.extraction = addUsage(usage.extraction, world.ingest.usage);
    const titles = unit.conversations.map((c) => c.title);
    try {
      const answerers: Record<QaSystem, Answerer> = {
        pie: pieAnswerer({
          world,
          client: options.answerClient,
          tz: options.tz,
          format: options.format,
          budget: options.contextTokens,
        }),
        naive_rag: naiveRagAnswerer({
          conversations: unit.conversations,
          client: options.answerClient,
          tz: options.tz,
          chunkTurns: options.chunkTurns,
          chunks: options.ragChunks,
          budget: options.contextTokens,
        }),
      };
      for (const item of pending) {
        if (overBudget()) return summarize(options.results, usage, answered, skippedDone, true);
        done += 1;
        options.onProgress?.({ phase: 'query', label: item.key, done, total });
        for (const system of systems) {
          if (options.results.has(system, item.key)) continue;
          const answer = await answerers[system](item.question, item.now);
          const verdict = await options.judgeClient.generateText({
            prompt: JUDGE_PROMPT,
            input: { text: item.judgeText(answer.text) },
          });
          usage[system] = addUsage(addUsage(usage[system], answer.usage), verdict.usage);
          // Only where both contexts were cut to one budget (pie bench context --qa) is the proxy the benchmark's.
          const maxWords = options.contextTokens ? options.proxyMaxWords : undefined;
          const inContext = proxyHit({ item, context: answer.context, titles, maxWords });
          options.results.add({
            key: item.key,
            system,
            group: item.group,
            question: item.question,
            gold: item.gold,
            response: answer.text,
            correct: judgedYes(verdict.text),
            answerUsage: answer.usage,
            judgeUsage: verdict.usage,
            ...(inContext === undefined ? {} : { inContext }),
          });
          answered += 1;
        }
      }
    } finally {
      await world.close();
    }
  }
  return summarize(options.results, usage, answered, skippedDone, false);
}

/** Whether the item's proxy answer is written in the context (contextBody, answerInText); undefined when not scored. */
function proxyHit(input: {
  item: QaItem;
  context: string;
  titles: readonly string[];
  maxWords: number | undefined;
}): boolean | undefined {
  const { item, maxWords } = input;
  if (maxWords === undefined || item.proxyAnswer === undefined) return undefined;
  if (!isShortAnswer(item.proxyAnswer, maxWords)) return undefined;
  const body = contextBody(input.context, { question: item.question, titles: input.titles });
  return answerInText(item.proxyAnswer, body);
}

/** Accuracy per group over every record in the results file (this run's and earlier runs'). */
function summarize(
  results: ResultsFile,
  usage: QaSummary['usage'],
  answered: number,
  skippedDone: number,
  stoppedByBudget: boolean,
): QaSummary {
  const table = new MetricTable();
  for (const r of results.records()) {
    for (const group of [r.group, 'all']) table.add(group, r.system, { accuracy: r.correct ? 1 : 0 });
  }
  return { table, usage, answered, skippedDone, stoppedByBudget };
}
