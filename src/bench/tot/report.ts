import { metricMarkdown } from '../markdown.js';
import type { TotContextResult } from './run.js';

export interface TotMeta {
  command: string;
  revision: string;
  data: string;
  extractor: string;
  date: string;
  seconds: number;
  total: number;
  unreadable: number;
}

/** `pie bench tot` without a model, as a marked section of docs/benchmarks.md. */
export function totContextSection(result: TotContextResult, meta: TotMeta): string {
  const columns = [{ key: 'pie', label: 'PIE' }];
  const chars = result.table.groups
    .filter((g) => result.table.count(g, 'pie') > 0)
    .map((g) => `${g} ${(result.table.mean(g, 'pie', 'context_chars') ?? 0).toFixed(0)}`)
    .join(', ');
  return [
    '## Test of Time arithmetic (contexts only, no LLM)',
    '',
    `Command: \`${meta.command}\`. Source at ${meta.revision}. Data: \`${meta.data}\` (${result.items} of ${meta.total} items` +
      `${meta.unreadable > 0 ? `; ${meta.unreadable} unreadable` : ''}). Extractor: ${meta.extractor}; no model answers (context only). ` +
      `Run on ${meta.date} in ${meta.seconds.toFixed(0)} s${result.stoppedByBudget ? ', stopped at the --budget-tokens cap' : ''}.`,
    '',
    "Each item's problem statement becomes a dated markdown note imported by the notes importer into its own world; " +
      "PIE is asked the item's question and its compiled context (format `auto`) is checked without its header " +
      '(the "Question:" line repeats the ask). facts_in_context: share of items whose every stated quantity (numbers, ' +
      'dates, times, eras, weekday and month names) is in the context; fact_recall: share of the stated quantities ' +
      'found; answer_in_context: share whose gold answer values are written in it. Answers have to be computed or ' +
      'chosen: compare answers are names that the statement lists, and a small number such as "3" appears in most ' +
      `contexts, so that column shows coincidence, not skill. Mean context length in characters: ${chars}.`,
    '',
    metricMarkdown(result.table, ['facts_in_context', 'fact_recall', 'answer_in_context'], columns),
  ].join('\n');
}
