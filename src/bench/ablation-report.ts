import { CONDITION_LABELS, type AblationCondition } from './ablation-conditions.js';
import { SET_TITLES, type AblationSet } from './ablation-units.js';
import type { AblationResult } from './ablation.js';
import { pct } from './markdown.js';

export interface AblationMeta {
  command: string;
  revision: string;
  data: string;
  extractor: string;
  date: string;
  seconds: number;
  /** With --qa: the answering and judging models. */
  models?: { answer: string; judge: string } | undefined;
}

const METRICS: Record<AblationSet, { key: string; label: string }[]> = {
  locomo: [
    { key: 'answer_in_context', label: 'answer in context %' },
    { key: 'year_in_context', label: 'year in context %' },
  ],
  // Its temporal-reasoning answers are durations, counts and names, never a year: only the answer is checked.
  longmemeval: [{ key: 'answer_in_context', label: 'answer in context %' }],
  tot: [{ key: 'facts_in_context', label: 'all stated facts in context %' }],
};

/** One set's ablation table as a markdown section (rows: conditions). */
export function ablationSection(input: {
  set: AblationSet;
  result: AblationResult;
  conditions: readonly AblationCondition[];
  meta: AblationMeta;
}): string {
  const { set, result, meta } = input;
  const group = set;
  const n = result.table.count(group, input.conditions[0] ?? 'auto');
  const metrics = METRICS[set];
  const qa = result.accuracy;
  const chose = result.autoChose[group] ?? { absolute: 0, semantic: 0, hybrid: 0 };
  const header = [
    'condition',
    ...metrics.map((m) => m.label),
    'context chars (mean)',
    ...(qa ? ['accuracy %', 'n judged'] : []),
  ];
  const rows = input.conditions.map((c) => [
    CONDITION_LABELS[c],
    ...metrics.map((m) => pct(result.table.mean(group, c, m.key))),
    (result.table.mean(group, c, 'context_chars') ?? 0).toFixed(0),
    ...(qa ? [pct(qa.mean(group, c, 'accuracy')), String(qa.count(group, c))] : []),
  ]);
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const models = meta.models
    ? `Answers by ${meta.models.answer}, graded by ${set === 'tot' ? 'exact match of the JSON answer fields' : `the judge ${meta.models.judge}`}.`
    : 'No model answered (contexts only); accuracy per condition needs `--qa` and a model (docs/evaluation.md).';
  const what =
    set === 'tot'
      ? '"all stated facts in context" is the share of items whose every stated quantity (numbers, dates, times, eras, weekday and month names) is written in the context.'
      : set === 'locomo'
        ? '"answer in context" is the share whose gold answer is written in the context body (lower-cased, punctuation dropped, whole words; the "Question:" and "Now:" header lines left out); "year in context" the share whose gold answer\'s year is.'
        : '"answer in context" is the share whose gold answer is written in the context body (lower-cased, punctuation dropped, whole words; header lines left out). Most gold answers here are durations ("7 days"), so a relative phrase such as "7 days ago" can match by coincidence: read it as what each rendering puts in words, not as accuracy.';
  return [
    `## Temporal context formats: ${SET_TITLES[set]}`,
    '',
    `Command: \`${meta.command}\`. Source at ${meta.revision}. Data: \`${meta.data}\` (${n} questions). Extractor: ${meta.extractor}. ` +
      `Run on ${meta.date} in ${meta.seconds.toFixed(0)} s. ${models} For each condition PIE compiles the context of every question; ${what} ` +
      `\`auto\` chose absolute ${chose.absolute}, semantic ${chose.semantic}, hybrid ${chose.hybrid} times` +
      `${result.stoppedByBudget ? '; the run stopped at the --budget-tokens cap' : ''}.`,
    '',
    line(header),
    line(header.map(() => '---')),
    ...rows.map(line),
  ].join('\n');
}
