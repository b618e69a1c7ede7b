import { plural } from '../../../domain/humanize.js';
import { ResultsFile } from '../../../bench/qa/results-file.js';
import { qaSection, usageText } from '../../../bench/qa/report.js';
import { PROXY_NOTE, proxyCheck, proxyRows } from '../../../bench/qa/proxy.js';
import { runQa } from '../../../bench/qa/run.js';
import { locomoUnits, longmemevalUnits } from '../../../bench/qa/units.js';
import { metricText, QA_SYSTEMS, textTable, writeMarkedSection } from '../../../bench/markdown.js';
import type { WorldExtraction } from '../../../bench/world.js';
import type { ContextTokens } from '../../../bench/qa/answerers.js';
import { parsePositiveInt } from '../args.js';
import type { CommandContext } from '../context.js';
import { parseTimeFormat } from './ask.js';
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

/** `pie bench locomo|longmemeval --qa`: PIE vs naive_rag answers judged per the benchmark's rules; --report writes them. */
export async function benchQa(input: {
  ctx: CommandContext;
  name: 'locomo' | 'longmemeval';
  raws: unknown[];
  flags: BenchFlags;
  data: string;
  extraction: WorldExtraction;
  extractor: string;
  /** pie bench context --qa: both contexts at this token budget (see QaOptions.contextTokens). */
  contextTokens?: ContextTokens;
  /** Names the part of the data in the report title ("conversations 6-10 (held out)"). */
  part?: string;
  /** pie bench context --qa: the proxy is scored for answers of at most this many words a part (proxy.ts). */
  proxyMaxWords?: number;
}): Promise<void> {
  const { ctx, name, raws, flags, contextTokens } = input;
  const format = parseTimeFormat(flags.timeFormat);
  const { answer, judge } = await qaModels(ctx, flags);
  const limit = optionalInt(flags.limit, '--limit');
  const only = flags.only?.split(',').map((s) => s.trim());
  const units =
    name === 'locomo'
      ? locomoUnits({ samples: raws, tz: 'UTC', limit, ...(only ? { categories: only.map(Number) } : {}) })
      : longmemevalUnits({ raws, tz: 'UTC', limit, ...(only ? { types: only } : {}) });
  const progress = benchProgress(ctx);
  const results = new ResultsFile(flags.out ?? null);
  const summary = await runQa(units, {
    tz: 'UTC',
    answerClient: answer.client,
    judgeClient: judge.client,
    extraction: input.extraction,
    openStore: memoryStore(ctx),
    results,
    format,
    chunkTurns: parsePositiveInt(flags.chunkTurns, '--chunk-turns'),
    ragChunks: parsePositiveInt(flags.ragChunks, '--rag-chunks'),
    budgetTokens: optionalInt(flags.budgetTokens, '--budget-tokens'),
    contextTokens,
    proxyMaxWords: input.proxyMaxWords,
    onProgress: progress.onProgress,
  });
  progress.done();
  // Only pie bench context --qa scores the proxy (runQa marks records only with a context budget).
  const proxy = contextTokens
    ? proxyCheck(
        results.records(),
        QA_SYSTEMS.map((s) => s.key),
      )
    : [];
  const usage = { PIE: summary.usage.pie, naive_rag: summary.usage.naive_rag, extraction: summary.usage.extraction };
  if (flags.report) {
    const file = input.data.replace(/^.*\//, '').replace(/\.json$/, '');
    const markdown = qaSection({
      meta: {
        title: `${name === 'locomo' ? 'LoCoMo' : 'LongMemEval'} QA accuracy, ${input.part ?? file}${contextTokens ? ` at ${contextTokens.tokens} context tokens` : ''} (answered and judged by a model)`,
        command: commandLine(name, flags),
        revision: sourceRevision(),
        data: input.data,
        extractor: input.extractor,
        answerModel: answer.description,
        grading: `the judge ${judge.description} (${name === 'locomo' ? 'generous CORRECT/WRONG; category 5 as abstention' : 'the official per-type prompts of evaluate_qa.py, abstention for _abs'})`,
        date: today(),
        seconds: progress.seconds(),
        notes: [
          contextTokens
            ? `Both contexts at ${contextTokens.tokens} tokens: PIE's compiled to it in the \`${format}\` time format; naive_rag: BM25 chunks of ${flags.chunkTurns} turns cut to it; same answer prompt.`
            : `PIE's context in the \`${format}\` time format; naive_rag: the top ${flags.ragChunks} BM25 chunks of ${flags.chunkTurns} turns, same answer prompt.`,
        ],
      },
      table: summary.table,
      systems: QA_SYSTEMS,
      usage,
      answered: summary.answered,
      stoppedByBudget: summary.stoppedByBudget,
      proxy,
    });
    const section = contextTokens ? `qa-context-${name}-${contextTokens.tokens}` : `qa-${name}-${file}`;
    writeMarkedSection(flags.report, flags.section ?? section, markdown);
  }
  const proxyLines = proxyRows(proxy);
  const text = [
    metricText(summary.table, ['accuracy'], QA_SYSTEMS),
    ...(proxyLines.length === 0 ? [] : ['', PROXY_NOTE, textTable(proxyLines)]),
    '',
    `answer ${answer.description}, judge ${judge.description}, extraction ${input.extractor}, PIE time format ${format}`,
    Object.entries(usage)
      .map(([k, u]) => `${k} ${usageText(u)}`)
      .join('; '),
    `${plural(summary.answered, 'answer')} judged this run, ${plural(summary.skippedDone, 'question')} already in ${flags.out ?? '(no --out)'}` +
      (summary.stoppedByBudget ? '; stopped at the --budget-tokens cap (run again to continue)' : ''),
  ].join('\n');
  ctx.emit({ text, json: { benchmark: name, mode: 'qa', format, ...summary, proxy, table: summary.table.toJSON() } });
}
