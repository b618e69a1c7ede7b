import type { Usage } from '../../extract/types.js';
import { markdownTable, metricMarkdown, type SystemColumn } from '../markdown.js';
import type { MetricTable } from '../metrics.js';
import { PROXY_NOTE, proxyRows, type ProxyRow } from './proxy.js';

export interface QaReportMeta {
  title: string;
  command: string;
  revision: string;
  data: string;
  extractor: string;
  answerModel: string;
  /** The judge model, or how answers are graded without one (ToT: exact match). */
  grading: string;
  date: string;
  seconds: number;
  /** Extra facts of the run (time format, chunks…), one sentence each. */
  notes: readonly string[];
}

export function usageText(u: Usage): string {
  return `${(u.inputTokens + u.outputTokens).toLocaleString('en-US')} tokens (${u.inputTokens.toLocaleString('en-US')} in, ${u.outputTokens.toLocaleString('en-US')} out), $${u.costUsd.toFixed(2)}`;
}

/**
 * A QA run as a marked section of docs/benchmarks.md: the command, data, models, date, accuracy per category for
 * each system side by side, and the tokens and cost of each system and of extraction.
 */
export function qaSection(input: {
  meta: QaReportMeta;
  table: MetricTable;
  systems: readonly SystemColumn[];
  usage: Readonly<Record<string, Usage>>;
  answered: number;
  stoppedByBudget: boolean;
  /** pie bench context --qa: the proxy check (proxy.ts), written under the accuracy table when any record has one. */
  proxy?: readonly ProxyRow[];
}): string {
  const { meta } = input;
  const costs = Object.entries(input.usage)
    .map(([name, u]) => `${name}: ${usageText(u)}`)
    .join('; ');
  return [
    `## ${meta.title}`,
    '',
    `Command: \`${meta.command}\`. Source at ${meta.revision}. Data: \`${meta.data}\`. Extractor: ${meta.extractor}. ` +
      `Answering model: ${meta.answerModel}; graded by ${meta.grading}. Run on ${meta.date} in ${meta.seconds.toFixed(0)} s; ` +
      `${input.answered} answers graded in this run (the table counts every answer in the results file)` +
      `${input.stoppedByBudget ? ', stopped at the --budget-tokens cap (run again with the same --out to continue)' : ''}. ` +
      meta.notes.join(' '),
    '',
    `Tokens and cost of this run (answers and judgements per system): ${costs}.`,
    '',
    'Accuracy in percent (n = answers graded for PIE):',
    '',
    metricMarkdown(input.table, ['accuracy'], input.systems),
    ...proxyMarkdown(input.proxy ?? []),
  ].join('\n');
}

function proxyMarkdown(proxy: readonly ProxyRow[]): string[] {
  const rows = proxyRows(proxy);
  return rows.length === 0 ? [] : ['', PROXY_NOTE, '', ...markdownTable(rows)];
}
