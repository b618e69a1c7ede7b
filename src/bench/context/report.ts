import { markdownTable, pct, textTable } from '../markdown.js';
import type { MetricTable } from '../metrics.js';
import { discordant, discordantCell } from './paired.js';
import { groupsOfItem, systemKey, WITHOUT_BARE_NUMBERS, type ContextBenchResult } from './run.js';

export interface ContextRunMeta {
  command: string;
  revision: string;
  data: string;
  /** Which part of the data: "LoCoMo conversations 6–10 (held out)", "LongMemEval S dev30 (tuning)". */
  part: string;
  extractor: string;
  chunkTurns: number;
  budgets: number[];
  maxAnswerWords: number;
  date: string;
  seconds: number;
}

const delta = (a: number | null, b: number | null): string =>
  a === null || b === null ? '–' : `${a >= b ? '+' : ''}${((a - b) * 100).toFixed(1)}`;

/** Groups in table order, then "all", then "all" without bare-number answers. */
function groupsOf(table: MetricTable): string[] {
  const last = ['all', WITHOUT_BARE_NUMBERS];
  return [...table.groups.filter((g) => !last.includes(g)), ...last.filter((g) => table.groups.includes(g))];
}

/** Rows: group, n, then per budget PIE, naive_rag and the difference (points); the last row is PIE's budget use. */
export function contextRows(r: ContextBenchResult, budgets: readonly number[]): string[][] {
  const header = ['group', 'n', ...budgets.flatMap((b) => [`PIE @${b}`, `naive_rag @${b}`, 'Δ'])];
  const rows = groupsOf(r.table).map((g) => [
    g,
    String(r.table.count(g, systemKey('pie', budgets[0] ?? 0))),
    ...budgets.flatMap((b) => {
      const pie = r.table.mean(g, systemKey('pie', b), 'hit');
      const rag = r.table.mean(g, systemKey('naive_rag', b), 'hit');
      return [pct(pie), pct(rag), delta(pie, rag)];
    }),
  ]);
  const use = [
    'tokens used (mean, % of budget)',
    '',
    ...budgets.flatMap((b) => {
      const pie = r.table.mean('all', systemKey('pie', b), 'tokens');
      const rag = r.table.mean('all', systemKey('naive_rag', b), 'tokens');
      const share = (v: number | null) => (v === null ? '–' : `${v.toFixed(0)} (${((v / b) * 100).toFixed(0)} %)`);
      return [share(pie), share(rag), ''];
    }),
  ];
  const roomy = [
    'tokens used where the conversations hold more than the budget (mean, % of budget, questions)',
    '',
    ...budgets.flatMap((b) => {
      const share = (system: 'pie' | 'naive_rag') => {
        const acc = r.roomy.get(systemKey(system, b));
        if (!acc || acc.questions === 0) return '–';
        const mean = acc.tokens / acc.questions;
        return `${mean.toFixed(0)} (${((mean / b) * 100).toFixed(0)} %, ${acc.questions})`;
      };
      return [share('pie'), share('naive_rag'), ''];
    }),
  ];
  return [header, ...rows, use, roomy];
}

/**
 * Rows of the paired table: per group and budget, the questions only PIE's context has the answer for and those only
 * naive_rag's has, with the exact sign test's p (paired.ts).
 */
export function pairedRows(r: ContextBenchResult, budgets: readonly number[]): string[][] {
  const header = ['group', ...budgets.map((b) => `PIE only / naive_rag only @${b}`)];
  const rows = groupsOf(r.table).map((g) => [
    g,
    ...budgets.map((budget) =>
      discordantCell(
        discordant({
          records: r.records,
          inGroup: (rec) => groupsOfItem(rec).includes(g),
          budget,
          a: 'pie',
          b: 'naive_rag',
        }),
      ),
    ),
  ]);
  return [header, ...rows];
}

/** A sentence that says how to read the paired table. */
const PAIRED_NOTE =
  "Paired by question: how many questions only PIE's context has the answer for, and only naive_rag's, with the " +
  'exact two-sided sign test (p: how often a split at least this uneven comes from two equally good systems; a ' +
  "small group's difference of a few points is often one or two questions).";

export function contextMarkdown(r: ContextBenchResult, meta: ContextRunMeta): string {
  return [
    `## Answer in context: ${meta.part}`,
    '',
    `Command: \`${meta.command}\`. Source at ${meta.revision}. Data: \`${meta.data}\`. Extractor: ${meta.extractor}; ` +
      `no model. PIE: \`buildQueryContext\` at each token budget (o200k tokens); naive_rag: BM25 over chunks of ` +
      `${meta.chunkTurns} turns, each headed by its session date, best first, cut at the same budget. A hit: the ` +
      `gold answer is written in the context (docs/evaluation.md "Answer in context"). Questions whose answer has ` +
      `more than ${meta.maxAnswerWords} words a part are left out (${r.longAnswers}). Run on ${meta.date} in ` +
      `${meta.seconds.toFixed(0)} s.`,
    '',
    `${r.questions} questions scored; PIE failures: ${r.failures.length}.`,
    '',
    ...markdownTable(contextRows(r, meta.budgets)),
    '',
    PAIRED_NOTE,
    '',
    ...markdownTable(pairedRows(r, meta.budgets)),
  ].join('\n');
}

export function contextText(r: ContextBenchResult, budgets: readonly number[]): string {
  return `${textTable(contextRows(r, budgets))}\n\n${PAIRED_NOTE}\n${textTable(pairedRows(r, budgets))}`;
}
