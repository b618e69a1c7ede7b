import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { compose, createEmbedderFromEnv, createExtraction, createQueryModel } from '../../../compose.js';
import { ResultsFile } from '../../../bench/qa/results-file.js';
import { runQa } from '../../../bench/qa/run.js';
import { locomoUnits, longmemevalUnits } from '../../../bench/qa/units.js';
import { metricText, QA_SYSTEMS } from '../../../bench/markdown.js';
import { ablationMarkdown, runTemporalAblation } from '../../../bench/ablation.js';
import { benchDataDir, DEFAULT_FILES, readJsonArray } from '../../../bench/data.js';
import { runLocomoRetrieval } from '../../../bench/locomo.js';
import { runLongMemEvalRetrieval } from '../../../bench/longmemeval.js';
import { writeMarkedSection } from '../../../bench/markdown.js';
import type { ProgressEvent, RetrievalOptions } from '../../../bench/retrieval-options.js';
import {
  locomoSection,
  locomoText,
  longmemevalSection,
  longmemevalText,
  type RunMeta,
} from '../../../bench/retrieval-report.js';
import type { WorldExtraction } from '../../../bench/world.js';
import { PieError } from '../../../domain/errors.js';
import type { WorldStore } from '../../../ports/world-store.js';
import { createOfflineExtractor } from '../../../extract/offline/index.js';
import { parsePositiveInt } from '../args.js';
import type { CommandContext } from '../context.js';
import { createProgress } from '../io.js';
import type { ActionRunner } from '../run.js';
import { parseTimeFormat } from './ask.js';

interface BenchFlags {
  data?: string;
  limit?: string;
  k: string;
  extractor: string;
  llm?: string;
  budgetTokens?: string;
  chunkTurns: string;
  out?: string;
  report?: string;
  section?: string;
  qa?: boolean;
  judge?: string;
  timeFormat: string;
  ragChunks: string;
  only?: string;
}

const NAMES = ['locomo', 'longmemeval', 'ablation', 'scale'] as const;
type BenchName = (typeof NAMES)[number];

export function registerBench(program: Command, run: ActionRunner): void {
  program
    .command('bench')
    .description(
      'evaluate retrieval on LoCoMo or LongMemEval: every conversation/question gets its own temporary world; BM25 baseline and PIE side by side (no model needed)',
    )
    .argument('<benchmark>', NAMES.join(' | '))
    .option('--data <file>', 'the benchmark file (default under $PIE_BENCH_DATA, else ../shared/data)')
    .option('--limit <n>', 'only the first N conversations (LoCoMo) or questions (LongMemEval)')
    .option('--k <list>', 'cut-offs for recall@k and NDCG@k, comma-separated', '5,10')
    .option('--extractor <kind>', 'offline | llm | auto (how each world is extracted)', 'offline')
    .option('--llm <provider:model>', 'model for --extractor llm (default $PIE_LLM, else an API key)')
    .option('--budget-tokens <n>', 'stop extracting once the run has used this many tokens')
    .option('--chunk-turns <n>', 'turns per chunk of the BM25 baseline', '2')
    .option('--out <file>', 'write the full results as JSON')
    .option('--report <file>', 'write the figures as a marked section of this markdown file (docs/benchmarks.md)')
    .option('--section <name>', 'the section name for --report (default: the benchmark and data file)')
    .option(
      '--qa',
      'answer and judge every question with a model (PIE vs naive_rag); --out is then the resumable JSONL',
    )
    .option('--judge <provider:model>', 'model of the judge for --qa (default: the --llm model)')
    .option(
      '--time-format <format>',
      'auto | semantic | absolute | hybrid: PIE context format for --qa (ablation)',
      'auto',
    )
    .option('--rag-chunks <n>', 'BM25 chunks in the naive_rag context for --qa', '10')
    .option('--only <groups>', 'for --qa: LoCoMo category numbers or LongMemEval types, comma-separated (e.g. 2)')
    .action((name: string, flags: BenchFlags) => run((ctx) => bench(ctx, name, flags)));
}

function parseName(name: string): BenchName {
  const found = NAMES.find((n) => n === name);
  if (!found) throw new PieError('INVALID_ARGUMENT', `pie bench "${name}" is not known; use ${NAMES.join(' or ')}.`);
  return found;
}

export function parseKs(text: string): number[] {
  const ks = text.split(',').map((s) => parsePositiveInt(s.trim(), '--k'));
  return [...new Set(ks)].sort((a, b) => a - b);
}

async function extractionFor(ctx: CommandContext, flags: BenchFlags): Promise<{ e: WorldExtraction; label: string }> {
  if (flags.extractor === 'offline') {
    return {
      e: { extractor: createOfflineExtractor(), embedder: createEmbedderFromEnv(ctx.io.env) },
      label: 'offline rules',
    };
  }
  if (flags.extractor !== 'llm' && flags.extractor !== 'auto') {
    throw new PieError('INVALID_ARGUMENT', `--extractor "${flags.extractor}" is not known; use offline, llm or auto.`);
  }
  // The user's database holds the LLM response cache, so re-runs do not pay twice.
  const services = await ctx.services();
  const x = await createExtraction({ services, choice: flags.extractor, llm: flags.llm });
  return { e: x, label: x.description };
}

async function bench(ctx: CommandContext, rawName: string, flags: BenchFlags): Promise<void> {
  const parsed = parseName(rawName);
  if (parsed === 'scale') return benchScale(ctx);
  const ks = parseKs(flags.k);
  const name = parsed === 'ablation' ? 'locomo' : parsed;
  const data = resolve(flags.data ?? `${benchDataDir(ctx.io.env)}/${DEFAULT_FILES[name]}`);
  const raws = readJsonArray(data, name === 'locomo' ? 'LoCoMo' : 'LongMemEval');
  const { e, label } = await extractionFor(ctx, flags);
  if (parsed === 'ablation') {
    const result = await runTemporalAblation({
      samples: raws,
      limit: flags.limit === undefined ? undefined : parsePositiveInt(flags.limit, '--limit'),
      extraction: e,
      openStore: memoryStore(ctx),
    });
    const markdown = ablationMarkdown(result, {
      command: commandLine(rawName, flags),
      revision: sourceRevision(),
      data: flags.data ?? `../shared/data/${DEFAULT_FILES.locomo}`,
      date: new Date().toISOString().slice(0, 10),
    });
    if (flags.report) writeMarkedSection(flags.report, flags.section ?? 'ablation-temporal-formats', markdown);
    ctx.emit({ text: markdown, json: { benchmark: 'ablation', ...result, table: result.table.toJSON() } });
    return;
  }
  if (flags.qa) {
    await benchQa({ ctx, name, raws, flags, extraction: e, extractor: label });
    return;
  }
  const progress = createProgress({ io: ctx.io, enabled: !ctx.config.json });
  const started = Date.now();
  const onProgress = (p: ProgressEvent): void => {
    const elapsed = (Date.now() - started) / 1000;
    const eta = p.done > 0 ? (elapsed / p.done) * (p.total - p.done) : null;
    const what = p.phase === 'ingest' ? 'building the world of' : 'querying';
    progress.update(
      `${p.done}/${p.total} · ${what} ${p.label} · ${elapsed.toFixed(0)} s${eta === null ? '' : `, ETA ${eta.toFixed(0)} s`}`,
    );
  };
  const options: RetrievalOptions = {
    tz: 'UTC',
    ks,
    limit: flags.limit === undefined ? undefined : parsePositiveInt(flags.limit, '--limit'),
    extraction: e,
    openStore: memoryStore(ctx),
    chunkTurns: parsePositiveInt(flags.chunkTurns, '--chunk-turns'),
    budgetTokens:
      flags.budgetTokens === undefined ? undefined : parsePositiveInt(flags.budgetTokens, '--budget-tokens'),
    onProgress,
  };
  const result =
    name === 'locomo' ? await runLocomoRetrieval(raws, options) : await runLongMemEvalRetrieval(raws, options);
  progress.done();
  const meta: RunMeta = {
    command: commandLine(rawName, flags),
    revision: sourceRevision(),
    data: flags.data ?? `../shared/data/${DEFAULT_FILES[name]}`,
    extractor: label,
    chunkTurns: options.chunkTurns,
    ks,
    date: new Date().toISOString().slice(0, 10),
    seconds: (Date.now() - started) / 1000,
  };
  const json = { benchmark: name, meta, ...result, table: result.table.toJSON() };
  if (flags.out) writeFileSync(flags.out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.report) {
    const section = flags.section ?? `${name}-${data.replace(/^.*\//, '').replace(/\.json$/, '')}`;
    const markdown =
      'evidence' in result
        ? locomoSection(result, meta)
        : longmemevalSection(result, meta, meta.data.replace(/^.*\//, ''));
    writeMarkedSection(flags.report, section, markdown);
  }
  const text = 'evidence' in result ? locomoText(result, ks) : longmemevalText(result, ks);
  ctx.emit({ text: `${text}\n\n(${meta.seconds.toFixed(0)} s, ${label})`, json });
}

/** Each world is a fresh in-memory SQLite database, opened through the composition root. */
function memoryStore(ctx: CommandContext): () => Promise<WorldStore> {
  return async () => (await compose({ config: { ...ctx.config, dbPath: ':memory:' }, env: ctx.io.env })).store;
}

/**
 * `scale` is measured by the repository's benchmark programs on the synthetic spec-scale export (import throughput,
 * ingest dry-run tokens and cost, query latency): this names them rather than duplicating them.
 */
function benchScale(ctx: CommandContext): void {
  if (!existsSync('bench/run.ts')) {
    throw new PieError(
      'UNSUPPORTED',
      'pie bench scale runs from a PIE source checkout: run `npm run bench -- import`, `-- dry-run` and `-- query` there.',
    );
  }
  const steps = ['import', 'dry-run', 'query'];
  for (const step of steps) {
    ctx.io.stderr(`pie bench scale: npm run bench -- ${step}\n`);
    const r = spawnSync('npm', ['run', 'bench', '--', step], { stdio: 'inherit' });
    if (r.status !== 0)
      throw new PieError('INTERNAL', `npm run bench -- ${step} failed (exit ${r.status ?? 'signal'}).`);
  }
  ctx.emit({ text: 'Scale figures written to docs/benchmarks.md (sections import, dry-run, query).', json: { steps } });
}

/** The checked-out commit, "+ local changes in src/" when src/ differs from it (figures depend on the source). */
function sourceRevision(): string {
  try {
    const git = (args: string[]): string => execFileSync('git', args, { encoding: 'utf8' }).trim();
    const head = git(['rev-parse', '--short', 'HEAD']);
    return git(['status', '--porcelain', '--', 'src']) === '' ? head : `${head} + local changes in src/`;
  } catch {
    return 'an unknown revision';
  }
}

function commandLine(name: string, flags: BenchFlags): string {
  const parts = ['pie bench', name];
  if (flags.data) parts.push(`--data ${flags.data}`);
  if (flags.limit) parts.push(`--limit ${flags.limit}`);
  if (flags.k !== '5,10') parts.push(`--k ${flags.k}`);
  if (flags.extractor !== 'offline') parts.push(`--extractor ${flags.extractor}`);
  if (flags.llm) parts.push(`--llm ${flags.llm}`);
  if (flags.chunkTurns !== '2') parts.push(`--chunk-turns ${flags.chunkTurns}`);
  return parts.join(' ');
}

async function benchQa(input: {
  ctx: CommandContext;
  name: BenchName;
  raws: unknown[];
  flags: BenchFlags;
  extraction: WorldExtraction;
  extractor: string;
}): Promise<void> {
  const { ctx, name, raws, flags } = input;
  const format = parseTimeFormat(flags.timeFormat);
  const services = await ctx.services();
  const answer = await createQueryModel({ services, llm: flags.llm });
  const judge = await createQueryModel({ services, llm: flags.judge ?? flags.llm });
  if (!answer || !judge) {
    throw new PieError(
      'LLM_UNAVAILABLE',
      'pie bench --qa needs a model to answer and judge; pass --llm provider:model (and --judge), set PIE_LLM, or set OPENAI_API_KEY or ANTHROPIC_API_KEY.',
    );
  }
  const limit = flags.limit === undefined ? undefined : parsePositiveInt(flags.limit, '--limit');
  const only = flags.only?.split(',').map((s) => s.trim());
  const units =
    name === 'locomo'
      ? locomoUnits({ samples: raws, tz: 'UTC', limit, ...(only ? { categories: only.map(Number) } : {}) })
      : longmemevalUnits({ raws, tz: 'UTC', limit, ...(only ? { types: only } : {}) });
  const progress = createProgress({ io: ctx.io, enabled: !ctx.config.json });
  const started = Date.now();
  const summary = await runQa(units, {
    tz: 'UTC',
    answerClient: answer.client,
    judgeClient: judge.client,
    extraction: input.extraction,
    openStore: memoryStore(ctx),
    results: new ResultsFile(flags.out ?? null),
    format,
    chunkTurns: parsePositiveInt(flags.chunkTurns, '--chunk-turns'),
    ragChunks: parsePositiveInt(flags.ragChunks, '--rag-chunks'),
    budgetTokens:
      flags.budgetTokens === undefined ? undefined : parsePositiveInt(flags.budgetTokens, '--budget-tokens'),
    onProgress: (p) => {
      const elapsed = (Date.now() - started) / 1000;
      const eta = p.done > 0 ? (elapsed / p.done) * (p.total - p.done) : null;
      progress.update(
        `${p.done}/${p.total} · ${p.label} · ${elapsed.toFixed(0)} s${eta === null ? '' : `, ETA ${eta.toFixed(0)} s`}`,
      );
    },
  });
  progress.done();
  const cost = (u: { inputTokens: number; outputTokens: number; costUsd: number }): string =>
    `${u.inputTokens + u.outputTokens} tokens, $${u.costUsd.toFixed(2)}`;
  const text = [
    metricText(summary.table, ['accuracy'], QA_SYSTEMS),
    '',
    `answer ${answer.description}, judge ${judge.description}, extraction ${input.extractor}, PIE time format ${format}`,
    `PIE ${cost(summary.usage.pie)}; naive_rag ${cost(summary.usage.naive_rag)}; extraction ${cost(summary.usage.extraction)}`,
    `${summary.answered} answers judged this run, ${summary.skippedDone} questions already in ${flags.out ?? '(no --out)'}` +
      (summary.stoppedByBudget ? '; stopped at the --budget-tokens cap (run again to continue)' : ''),
  ].join('\n');
  ctx.emit({ text, json: { benchmark: name, mode: 'qa', format, ...summary, table: summary.table.toJSON() } });
}
