import type { Tokenizer } from '../../ports/tokenizer.js';
import type { WorldStore } from '../../ports/world-store.js';
import { buildQueryContext } from '../../query/ask.js';
import type { TimeFormatChoice } from '../../query/types.js';
import { MetricTable } from '../metrics.js';
import type { ProgressEvent } from '../retrieval-options.js';
import { buildWorld, type WorldExtraction } from '../world.js';
import { answerInText, contextBody, isBareNumber, isShortAnswer } from './match.js';
import { naiveRagContexts } from './naive-rag.js';
import type { ContextItem, ContextUnit } from './units.js';

export const CONTEXT_SYSTEMS = ['pie', 'naive_rag'] as const;
export type ContextSystem = (typeof CONTEXT_SYSTEMS)[number];

export interface ContextBenchOptions {
  tz: string;
  budgets: readonly number[];
  extraction: WorldExtraction;
  openStore: () => Promise<WorldStore>;
  tokenizer: Tokenizer;
  chunkTurns: number;
  format: TimeFormatChoice;
  /** Only answers of at most this many words a part are scored (a context can hold them verbatim). */
  maxAnswerWords: number;
  onProgress?: (event: ProgressEvent) => void;
}

/** One question's outcome: per system and budget, whether the answer is in the context and how many tokens it has. */
export interface ContextRecord {
  key: string;
  group: string;
  headline: boolean;
  question: string;
  answer: string;
  results: { system: ContextSystem; budget: number; hit: boolean; tokens: number }[];
}

export interface ContextBenchResult {
  /** Groups × "system@budget" → hit (share) and tokens (mean). */
  table: MetricTable;
  records: ContextRecord[];
  questions: number;
  /** Questions left out because their answer is long (a rubric or a sentence no context holds verbatim). */
  longAnswers: number;
  failures: { key: string; reason: string }[];
  /**
   * Budget use where the evidence could fill the budget: per "system@budget", the questions whose conversations hold
   * more tokens than the budget, and the mean tokens their contexts used.
   */
  roomy: Map<string, { questions: number; tokens: number }>;
}

export const systemKey = (system: ContextSystem, budget: number): string => `${system}@${budget}`;

/**
 * Answer in context (docs/evaluation.md): for every question, the context PIE compiles at each token budget and the
 * naive_rag context cut at the same budget, and whether the gold answer is written in each.
 */
export async function runContextBench(
  units: readonly ContextUnit[],
  options: ContextBenchOptions,
): Promise<ContextBenchResult> {
  const table = new MetricTable();
  const records: ContextRecord[] = [];
  const failures: ContextBenchResult['failures'] = [];
  let longAnswers = 0;
  const roomy: ContextBenchResult['roomy'] = new Map();
  const total = units.reduce((n, u) => n + u.items.length, 0);
  let done = 0;
  for (const unit of units) {
    options.onProgress?.({ phase: 'ingest', label: unit.label, done, total });
    const world = await buildWorld({ ...options, conversations: unit.conversations, label: unit.label });
    try {
      const rag = naiveRagContexts({ ...options, conversations: unit.conversations });
      const titles = unit.conversations.map((c) => c.title);
      const haystack = options.tokenizer.count(
        unit.conversations.flatMap((c) => c.turns.map((t) => t.text)).join('\n'),
      );
      for (const item of unit.items) {
        done += 1;
        options.onProgress?.({ phase: 'query', label: item.key, done, total });
        if (!isShortAnswer(item.answer, options.maxAnswerWords)) {
          longAnswers += 1;
          continue;
        }
        const record = await scoreItem({ item, store: world.store, rag, options, failures, titles });
        records.push(record);
        for (const r of record.results) {
          for (const group of groupsOfItem(item)) {
            table.add(group, systemKey(r.system, r.budget), { hit: r.hit ? 1 : 0, tokens: r.tokens });
          }
          if (item.headline && haystack > r.budget) {
            const key = systemKey(r.system, r.budget);
            const acc = roomy.get(key) ?? { questions: 0, tokens: 0 };
            roomy.set(key, { questions: acc.questions + 1, tokens: acc.tokens + r.tokens });
          }
        }
      }
    } finally {
      await world.close();
    }
  }
  return { table, records, questions: records.length, longAnswers, failures, roomy };
}

/**
 * The row of the table that leaves out answers that are a bare small number ("3", "two"): such a number is written in
 * most contexts by chance (a date, a numbered list), so a hit on it says little.
 */
export const WITHOUT_BARE_NUMBERS = 'all, answers not a bare number';

/** The table rows an item counts in: its group; "all" and WITHOUT_BARE_NUMBERS when it is a headline question. */
export function groupsOfItem(item: Pick<ContextItem, 'group' | 'headline' | 'answer'>): string[] {
  if (!item.headline) return [item.group];
  return [item.group, 'all', ...(isBareNumber(item.answer) ? [] : [WITHOUT_BARE_NUMBERS])];
}

async function scoreItem(input: {
  item: ContextItem;
  store: WorldStore;
  rag: (question: string, budget: number) => string;
  options: ContextBenchOptions;
  failures: ContextBenchResult['failures'];
  /** The conversations' titles, left out of what is matched (contextBody). */
  titles: readonly string[];
}): Promise<ContextRecord> {
  const { item, options } = input;
  const results: ContextRecord['results'] = [];
  for (const budget of options.budgets) {
    const pie = await pieContext({ ...input, budget }).catch((error: unknown) => {
      input.failures.push({ key: item.key, reason: error instanceof Error ? error.message : String(error) });
      return '';
    });
    const rag = input.rag(item.question, budget);
    for (const [system, text] of [
      ['pie', pie],
      ['naive_rag', rag],
    ] as const) {
      const body = contextBody(text, { question: item.question, titles: input.titles });
      results.push({ system, budget, hit: answerInText(item.answer, body), tokens: options.tokenizer.count(text) });
    }
  }
  return {
    key: item.key,
    group: item.group,
    headline: item.headline,
    question: item.question,
    answer: item.answer,
    results,
  };
}

async function pieContext(input: {
  item: ContextItem;
  store: WorldStore;
  options: ContextBenchOptions;
  budget: number;
}): Promise<string> {
  const { item, options, budget } = input;
  const context = await buildQueryContext({
    store: input.store,
    question: item.question,
    now: item.now,
    tz: options.tz,
    format: options.format,
    client: null,
    maxTokens: budget,
    tokenizer: options.tokenizer,
  });
  return context.text;
}
