import type { Usage } from '../../extract/types.js';
import type { LlmClient } from '../../llm/index.js';
import { addUsage, emptyUsage } from '../../llm/index.js';
import type { WorldStore } from '../../ports/world-store.js';
import { buildQueryContext } from '../../query/ask.js';
import { ANSWER_PROMPT } from '../../query/answer-prompt.js';
import { longDate } from '../../compile/time-format.js';
import { MetricTable } from '../metrics.js';
import type { ResultsFile } from '../qa/results-file.js';
import type { ProgressEvent } from '../retrieval-options.js';
import { contextBody } from '../time-renderings.js';
import { buildWorld, type WorldExtraction } from '../world.js';
import { TOT_CATEGORIES, type TotItem } from './items.js';
import { scoreTotAnswer } from './score.js';
import { totConversation, TOT_NOW } from './world.js';

const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ');

/** What the context (without its header) holds of an item: its stated facts (all / share), its gold answer values, its length. */
export function totContextMetrics(item: TotItem, context: string): Record<string, number> {
  // The "Question:" header repeats the asking sentence, whose quantities would count without PIE retrieving anything.
  const text = norm(contextBody(context));
  const present = item.facts.filter((f) => text.includes(norm(f))).length;
  const values = Object.entries(item.label)
    .filter(([k]) => k !== 'explanation')
    .flatMap(([, v]) => (Array.isArray(v) ? v : [v]))
    .map((v) => norm(String(v)));
  return {
    facts_in_context: present === item.facts.length ? 1 : 0,
    fact_recall: item.facts.length === 0 ? 1 : present / item.facts.length,
    answer_in_context: values.length > 0 && values.every((v) => text.includes(v)) ? 1 : 0,
    context_chars: context.length,
  };
}

export interface TotRunOptions {
  items: readonly TotItem[];
  extraction: WorldExtraction;
  openStore: () => Promise<WorldStore>;
  tz: string;
  budgetTokens?: number | undefined;
  onProgress?: (event: ProgressEvent) => void;
}

export interface TotContextResult {
  table: MetricTable;
  items: number;
  tokens: number;
  stoppedByBudget: boolean;
}

/** Builds each item's world from its note, asks PIE the item's question and measures the compiled context. */
export async function runTotContext(options: TotRunOptions): Promise<TotContextResult> {
  const table = new MetricTable();
  table.declare([...TOT_CATEGORIES, 'all']);
  let tokens = 0;
  let done = 0;
  for (const item of options.items) {
    if (options.budgetTokens !== undefined && tokens >= options.budgetTokens) {
      return { table, items: done, tokens, stoppedByBudget: true };
    }
    done += 1;
    options.onProgress?.({ phase: 'ingest', label: item.key, done, total: options.items.length });
    const world = await buildWorld({
      conversations: [totConversation(item, options.tz)],
      extraction: options.extraction,
      tz: options.tz,
      label: item.key,
      openStore: options.openStore,
      budgetTokens: options.budgetTokens === undefined ? undefined : Math.max(1, options.budgetTokens - tokens),
    });
    tokens += world.ingest.usage.inputTokens + world.ingest.usage.outputTokens;
    try {
      const context = await buildQueryContext({
        store: world.store,
        question: item.ask,
        now: TOT_NOW,
        tz: options.tz,
        format: 'auto',
        client: null,
      });
      const metrics = totContextMetrics(item, context.text);
      for (const group of [item.category, 'all']) table.add(group, 'pie', metrics);
    } finally {
      await world.close();
    }
  }
  return { table, items: done, tokens, stoppedByBudget: false };
}

export type TotSystem = 'raw' | 'pie';

export interface TotQaSummary {
  table: MetricTable;
  usage: Record<TotSystem | 'extraction', Usage>;
  answered: number;
  skippedDone: number;
  stoppedByBudget: boolean;
}

/**
 * ToT with a model: `raw` is the paper's "raw facts" baseline (the problem statement as the context), `pie` answers
 * from PIE's compiled context of the world built from that statement; both get the asking sentence and the format
 * instruction through the same answer prompt, so only the context differs. Scored by `scoreTotAnswer` (exact match of
 * the labelled fields); appended to the results file and resumed from it.
 */
export async function runTotQa(
  options: TotRunOptions & { client: LlmClient; results: ResultsFile; systems?: readonly TotSystem[] },
): Promise<TotQaSummary> {
  const systems = options.systems ?? (['raw', 'pie'] as const);
  const usage: TotQaSummary['usage'] = { raw: emptyUsage(), pie: emptyUsage(), extraction: emptyUsage() };
  const spent = (): number => Object.values(usage).reduce((n, u) => n + u.inputTokens + u.outputTokens, 0);
  let answered = 0;
  let skippedDone = 0;
  let done = 0;
  const finish = (stoppedByBudget: boolean): TotQaSummary => {
    const table = new MetricTable();
    table.declare([...TOT_CATEGORIES, 'all']);
    for (const r of options.results.records()) {
      for (const group of [r.group, 'all']) table.add(group, r.system, { accuracy: r.correct ? 1 : 0 });
    }
    return { table, usage, answered, skippedDone, stoppedByBudget };
  };
  for (const item of options.items) {
    done += 1;
    const pending = systems.filter((s) => !options.results.has(s, item.key));
    if (pending.length === 0) {
      skippedDone += 1;
      continue;
    }
    if (options.budgetTokens !== undefined && spent() >= options.budgetTokens) return finish(true);
    options.onProgress?.({ phase: 'query', label: item.key, done, total: options.items.length });
    const question = `${item.ask} ${item.instruction}`.trim();
    for (const system of pending) {
      let context: string;
      if (system === 'raw') context = item.statement;
      else {
        const world = await buildWorld({
          conversations: [totConversation(item, options.tz)],
          extraction: options.extraction,
          tz: options.tz,
          label: item.key,
          openStore: options.openStore,
          budgetTokens: options.budgetTokens === undefined ? undefined : Math.max(1, options.budgetTokens - spent()),
        });
        usage.extraction = addUsage(usage.extraction, world.ingest.usage);
        try {
          const built = await buildQueryContext({
            store: world.store,
            question: item.ask,
            now: TOT_NOW,
            tz: options.tz,
            format: 'auto',
            client: null,
          });
          context = built.text;
        } finally {
          await world.close();
        }
      }
      const result = await options.client.generateText({
        prompt: ANSWER_PROMPT,
        input: { question, context, now: longDate(TOT_NOW, options.tz) },
      });
      usage[system] = addUsage(usage[system], result.usage);
      options.results.add({
        key: item.key,
        system,
        group: item.category,
        question: item.question,
        gold: JSON.stringify(item.label),
        response: result.text,
        correct: scoreTotAnswer(item.label, result.text),
        answerUsage: result.usage,
        judgeUsage: emptyUsage(),
      });
      answered += 1;
    }
  }
  return finish(false);
}
