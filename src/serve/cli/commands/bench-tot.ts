import { metricText, writeMarkedSection } from '../../../bench/markdown.js';
import { ResultsFile } from '../../../bench/qa/results-file.js';
import { qaSection, usageText } from '../../../bench/qa/report.js';
import { firstPerCategory, readTotItems, TOT_CATEGORIES } from '../../../bench/tot/items.js';
import { totContextSection } from '../../../bench/tot/report.js';
import { runTotContext, runTotQa } from '../../../bench/tot/run.js';
import type { WorldExtraction } from '../../../bench/world.js';
import { PieError } from '../../../domain/errors.js';
import type { CommandContext } from '../context.js';
import {
  benchProgress,
  commandLine,
  memoryStore,
  optionalInt,
  qaModels,
  sourceRevision,
  today,
  type BenchFlags,
} from './bench-shared.js';

const TOT_SYSTEMS = [
  { key: 'raw', label: 'raw facts' },
  { key: 'pie', label: 'PIE' },
];

/**
 * `pie bench tot`: Test of Time arithmetic. Without a model: does PIE's compiled context hold the facts the answer
 * depends on, per category. With --qa: answers from the raw statement and from PIE's context, scored by exact match.
 * `--limit N` = the first N items of each category; `--only` = categories.
 */
export async function benchTot(input: {
  ctx: CommandContext;
  raws: unknown[];
  flags: BenchFlags;
  data: string;
  extraction: WorldExtraction;
  extractor: string;
}): Promise<void> {
  const { ctx, flags } = input;
  const { items: all, unreadable } = readTotItems(input.raws);
  const only = flags.only?.split(',').map((s) => s.trim());
  for (const c of only ?? []) {
    if (!TOT_CATEGORIES.some((k) => k === c)) {
      throw new PieError(
        'INVALID_ARGUMENT',
        `--only: "${c}" is not a Test of Time category; use ${TOT_CATEGORIES.join(', ')}.`,
      );
    }
  }
  const items = firstPerCategory(
    all.filter((i) => !only || only.includes(i.category)),
    optionalInt(flags.limit, '--limit'),
  );
  const progress = benchProgress(ctx);
  const common = {
    items,
    extraction: input.extraction,
    openStore: memoryStore(ctx),
    tz: 'UTC',
    budgetTokens: optionalInt(flags.budgetTokens, '--budget-tokens'),
    onProgress: progress.onProgress,
  };
  const section = flags.section ?? (flags.qa ? 'qa-tot-arithmetic' : 'tot-arithmetic');
  if (!flags.qa) {
    const result = await runTotContext(common);
    progress.done();
    const meta = {
      command: commandLine('tot', flags),
      revision: sourceRevision(),
      data: input.data,
      extractor: input.extractor,
      date: today(),
      seconds: progress.seconds(),
      total: all.length,
      unreadable,
    };
    if (flags.report) writeMarkedSection(flags.report, section, totContextSection(result, meta));
    const text = metricText(
      result.table,
      ['facts_in_context', 'fact_recall', 'answer_in_context'],
      [{ key: 'pie', label: 'PIE' }],
    );
    ctx.emit({
      text: `${text}\n\n(${result.items} items, ${meta.seconds.toFixed(0)} s, ${input.extractor})`,
      json: { benchmark: 'tot', meta, ...result, table: result.table.toJSON() },
    });
    return;
  }
  const { answer } = await qaModels(ctx, flags);
  const summary = await runTotQa({ ...common, client: answer.client, results: new ResultsFile(flags.out ?? null) });
  progress.done();
  const usage = { 'raw facts': summary.usage.raw, PIE: summary.usage.pie, extraction: summary.usage.extraction };
  if (flags.report) {
    const markdown = qaSection({
      meta: {
        title: 'Test of Time arithmetic QA accuracy (answered by a model)',
        command: commandLine('tot', flags),
        revision: sourceRevision(),
        data: input.data,
        extractor: input.extractor,
        answerModel: answer.description,
        grading: 'exact match of the JSON answer fields (src/bench/tot/score.ts; no judge model)',
        date: today(),
        seconds: progress.seconds(),
        notes: [
          '"raw facts" answers from the problem statement itself (the paper\'s baseline); PIE from its compiled context (format `auto`) of the world built from that statement.',
        ],
      },
      table: summary.table,
      systems: TOT_SYSTEMS,
      usage,
      answered: summary.answered,
      stoppedByBudget: summary.stoppedByBudget,
    });
    writeMarkedSection(flags.report, section, markdown);
  }
  const text = [
    metricText(summary.table, ['accuracy'], TOT_SYSTEMS),
    '',
    `answer ${answer.description}, graded by exact match; extraction ${input.extractor}`,
    Object.entries(usage)
      .map(([k, u]) => `${k} ${usageText(u)}`)
      .join('; '),
    `${summary.answered} answers graded this run, ${summary.skippedDone} items already in ${flags.out ?? '(no --out)'}` +
      (summary.stoppedByBudget ? '; stopped at the --budget-tokens cap (run again to continue)' : ''),
  ].join('\n');
  ctx.emit({ text, json: { benchmark: 'tot', mode: 'qa', ...summary, table: summary.table.toJSON() } });
}
