import type { TimeFormat } from '../compile/time-format.js';
import { longDate } from '../compile/time-format.js';
import type { Usage } from '../extract/types.js';
import type { LlmClient } from '../llm/index.js';
import { addUsage, emptyUsage } from '../llm/index.js';
import type { WorldStore } from '../ports/world-store.js';
import { ANSWER_PROMPT } from '../query/answer-prompt.js';
import { conditionContext, type AblationCondition } from './ablation-conditions.js';
import type { AblationItem, AblationUnit } from './ablation-units.js';
import { MetricTable } from './metrics.js';
import { JUDGE_PROMPT, judgedYes } from './qa/judge-prompts.js';
import type { ResultsFile } from './qa/results-file.js';
import type { ProgressEvent } from './retrieval-options.js';
import { scoreTotAnswer } from './tot/score.js';
import { contextBody } from './time-renderings.js';
import { buildWorld, type WorldExtraction } from './world.js';

/**
 * The temporal-format ablation (pie-paper §5.1; DESIGN.md §4): every question's context compiled in each condition
 * (A raw timestamps, B formatted dates, C relative only, D full semantic, `hybrid`, `auto`). Without a model it
 * measures what each context gives a model to work with; with one (`qa`) it answers from each context and grades the
 * answer by the set's rule (LoCoMo/LongMemEval LLM judge, ToT exact match), resumable through the results file.
 */
export interface AblationOptions {
  units: readonly AblationUnit[];
  conditions: readonly AblationCondition[];
  extraction: WorldExtraction;
  openStore: () => Promise<WorldStore>;
  /** Stop starting worlds and questions once extraction (and, with qa, answers and judgements) used this many tokens. */
  budgetTokens?: number | undefined;
  qa?: { answerClient: LlmClient; judgeClient: LlmClient; results: ResultsFile } | undefined;
  onProgress?: (event: ProgressEvent) => void;
}

export interface AblationResult {
  /** group (set) × condition → answer_in_context, year_in_context, facts_in_context, context_chars; accuracy with qa. */
  table: MetricTable;
  /** With qa: group × condition → accuracy, over every record of the results file (earlier runs' too). */
  accuracy: MetricTable | null;
  questions: number;
  /** Per group, the format `auto` actually chose, counted. */
  autoChose: Record<string, Record<TimeFormat, number>>;
  usage: { extraction: Usage; answers: Usage; judge: Usage };
  stoppedByBudget: boolean;
}

const norm = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

const contains = (text: string, part: string): boolean => part !== '' && ` ${text} `.includes(` ${part} `);

/** What a context holds for one question, its header lines (question, now) left out. Pure. */
export function contextMetrics(item: AblationItem, context: string): Record<string, number> {
  const body = contextBody(context);
  const text = norm(body);
  const metrics: Record<string, number> = { context_chars: context.length };
  if (item.facts) {
    const spaced = body.toLowerCase().replace(/\s+/g, ' ');
    metrics.facts_in_context = item.facts.every((f) => spaced.includes(f.toLowerCase())) ? 1 : 0;
  } else {
    const year = /\b(1[89]|20)\d\d\b/.exec(item.gold)?.[0];
    metrics.answer_in_context = contains(text, norm(item.gold)) ? 1 : 0;
    metrics.year_in_context = year !== undefined && contains(text, year) ? 1 : 0;
  }
  return metrics;
}

export async function runTemporalAblation(options: AblationOptions): Promise<AblationResult> {
  const table = new MetricTable();
  const autoChose: AblationResult['autoChose'] = {};
  const usage = { extraction: emptyUsage(), answers: emptyUsage(), judge: emptyUsage() };
  const spent = (): number => Object.values(usage).reduce((n, u) => n + u.inputTokens + u.outputTokens, 0);
  const over = (): boolean => options.budgetTokens !== undefined && spent() >= options.budgetTokens;
  const total = options.units.reduce((n, u) => n + u.items.length, 0);
  let done = 0;
  const result = (stoppedByBudget: boolean): AblationResult => {
    let accuracy: MetricTable | null = null;
    if (options.qa) {
      accuracy = new MetricTable();
      for (const r of options.qa.results.records()) accuracy.add(r.group, r.system, { accuracy: r.correct ? 1 : 0 });
    }
    return { table, accuracy, questions: done, autoChose, usage, stoppedByBudget };
  };
  for (const unit of options.units) {
    if (over()) return result(true);
    options.onProgress?.({ phase: 'ingest', label: unit.label, done, total });
    const world = await buildWorld({
      conversations: unit.conversations,
      extraction: options.extraction,
      openStore: options.openStore,
      tz: 'UTC',
      label: unit.label,
      budgetTokens: options.budgetTokens === undefined ? undefined : Math.max(1, options.budgetTokens - spent()),
    });
    usage.extraction = addUsage(usage.extraction, world.ingest.usage);
    try {
      for (const item of unit.items) {
        if (over()) return result(true);
        done += 1;
        options.onProgress?.({ phase: 'query', label: item.key, done, total });
        for (const condition of options.conditions) {
          const context = await conditionContext({
            store: world.store,
            question: item.question,
            now: item.now,
            tz: 'UTC',
            condition,
          });
          if (condition === 'auto') {
            const chose = (autoChose[item.group] ??= { absolute: 0, semantic: 0, hybrid: 0 });
            chose[context.chose] += 1;
          }
          table.add(item.group, condition, contextMetrics(item, context.text));
          const qa = options.qa;
          if (qa && !qa.results.has(condition, item.key) && !over()) {
            await answerAndGrade({ item, condition, context: context.text, qa, usage });
          }
        }
      }
    } finally {
      await world.close();
    }
  }
  return result(false);
}

async function answerAndGrade(input: {
  item: AblationItem;
  condition: AblationCondition;
  context: string;
  qa: NonNullable<AblationOptions['qa']>;
  usage: AblationResult['usage'];
}): Promise<void> {
  const { item, qa, usage } = input;
  const answer = await qa.answerClient.generateText({
    prompt: ANSWER_PROMPT,
    input: { question: item.answerQuestion, context: input.context, now: longDate(item.now, 'UTC') },
  });
  usage.answers = addUsage(usage.answers, answer.usage);
  let correct: boolean;
  let judgeUsage = emptyUsage();
  if (item.grading.kind === 'tot') correct = scoreTotAnswer(item.grading.item.label, answer.text);
  else {
    const verdict = await qa.judgeClient.generateText({
      prompt: JUDGE_PROMPT,
      input: { text: item.grading.text(answer.text.trim()) },
    });
    judgeUsage = verdict.usage;
    usage.judge = addUsage(usage.judge, verdict.usage);
    correct = judgedYes(verdict.text);
  }
  qa.results.add({
    key: item.key,
    system: input.condition,
    group: item.group,
    question: item.answerQuestion,
    gold: item.gold,
    response: answer.text.trim(),
    correct,
    answerUsage: answer.usage,
    judgeUsage,
  });
}
