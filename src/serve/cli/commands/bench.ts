import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { benchDataDir, DEFAULT_FILES, readJsonArray } from '../../../bench/data.js';
import { runLocomoRetrieval } from '../../../bench/locomo.js';
import { runLongMemEvalRetrieval } from '../../../bench/longmemeval.js';
import { writeMarkedSection } from '../../../bench/markdown.js';
import type { RetrievalOptions } from '../../../bench/retrieval-options.js';
import {
  locomoSection,
  locomoText,
  longmemevalSection,
  longmemevalText,
  type RunMeta,
} from '../../../bench/retrieval-report.js';
import { PieError } from '../../../domain/errors.js';
import { parsePositiveInt } from '../args.js';
import type { CommandContext } from '../context.js';
import type { ActionRunner } from '../run.js';
import { benchAblation } from './bench-ablation.js';
import { benchContext } from './bench-context.js';
import { benchExtraction } from './bench-extraction.js';
import { benchPersonal } from './bench-personal.js';
import { benchQa } from './bench-qa.js';
import {
  benchProgress,
  commandLine,
  extractionFor,
  memoryStore,
  optionalInt,
  sourceRevision,
  today,
  type BenchFlags,
} from './bench-shared.js';
import { benchTot } from './bench-tot.js';

const NAMES = ['locomo', 'longmemeval', 'tot', 'ablation', 'context', 'extraction', 'personal', 'scale'] as const;
type BenchName = (typeof NAMES)[number];

export function registerBench(program: Command, run: ActionRunner): void {
  program
    .command('bench')
    .description(
      'evaluate PIE on LoCoMo, LongMemEval and Test of Time (retrieval/context without a model, QA accuracy with --qa), the temporal-format ablation, answer-in-context at token budgets (context), extraction quality on LoCoMo (extraction), on questions made from your own history (personal), or scale',
    )
    .argument('<benchmark>', NAMES.join(' | '))
    .option('--data <file>', 'the benchmark file (default under $PIE_BENCH_DATA, else ../shared/data)')
    .option(
      '--limit <n>',
      'only the first N conversations (LoCoMo), questions (LongMemEval, personal) or items per category (Test of Time)',
    )
    .option('--k <list>', 'cut-offs for recall@k and NDCG@k, comma-separated', '5,10')
    .option('--extractor <kind>', 'offline | llm | auto (how each world is extracted)', 'offline')
    .option(
      '--llm <provider:model>',
      'model for --extractor llm and for --qa answers (default $PIE_LLM, else an API key); personal: the model that writes the questions (with --generate) and answers and judges them (only when given)',
    )
    .option(
      '--budget-tokens <n>',
      'stop once the run has used this many tokens (extraction; with --qa also answers and judgements)',
    )
    .option('--chunk-turns <n>', 'turns per chunk of the BM25 baseline', '2')
    .option('--out <file>', 'write the full results as JSON')
    .option('--report <file>', 'write the figures as a marked section of this markdown file (docs/benchmarks.md)')
    .option('--section <name>', 'the section name for --report (default: the benchmark and data file)')
    .option(
      '--qa',
      'answer and grade every question with a model (PIE vs naive_rag; tot: raw facts vs PIE; ablation: each condition; context: both contexts at the first --budgets value, each answer also marked with whether its gold answer was in the context); --out is then the resumable JSONL',
    )
    .option('--judge <provider:model>', 'model of the judge for --qa and personal (default: the --llm model)')
    .option(
      '--time-format <format>',
      'auto | semantic | absolute | hybrid: PIE context format for locomo/longmemeval --qa (the ablation uses --conditions)',
      'auto',
    )
    .option('--rag-chunks <n>', 'BM25 chunks in the naive_rag context for --qa', '10')
    .option(
      '--only <groups>',
      'LoCoMo category numbers or LongMemEval types for --qa, ToT categories, or ablation sets (locomo,longmemeval,tot)',
    )
    .option('--conditions <list>', 'ablation conditions: raw,absolute,relative,semantic,hybrid,auto (default all)')
    .option(
      '--set <name>',
      "context: locomo (default), longmemeval (S dev30, the tuning set), longmemeval-oracle-dev30 (the oracle file's dev30 questions: tuning for the evidence-only setting) or longmemeval-heldout (oracle questions outside dev30)",
    )
    .option(
      '--conversations <list>',
      'context, extraction: LoCoMo conversations by position, e.g. 1-5 (tuning), 6-10 (held out), all',
    )
    .option('--labels <file>', 'extraction: hand labels of entities (default bench/labels/locomo-entities.jsonl)')
    .option(
      '--examples <n>',
      'extraction: examples of hits and of misses of each kind kept per conversation in --out and --json (default 8)',
    )
    .option('--budgets <list>', 'context: token budgets, comma-separated (default 1000,2000,4000,8000)')
    .option('--max-answer-words <n>', 'context: leave out answers longer than this many words a part (default 6)')
    .option('--generate', 'personal: make a new question set from your history, replacing the stored one')
    .option('--compare', 'personal: show the change since the previous run on the same question set')
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

async function bench(ctx: CommandContext, rawName: string, flags: BenchFlags): Promise<void> {
  const parsed = parseName(rawName);
  if (parsed === 'scale') return benchScale(ctx);
  const ks = parseKs(flags.k);
  if (parsed === 'personal') return benchPersonal({ ctx, flags, ks });
  const { e, label } = await extractionFor(ctx, flags);
  if (parsed === 'ablation') return benchAblation({ ctx, flags, extraction: e, extractor: label });
  if (parsed === 'context') return benchContext({ ctx, flags, extraction: e, extractor: label });
  if (parsed === 'extraction') return benchExtraction({ ctx, flags, extraction: e, extractor: label });
  const name = parsed;
  const data = resolve(flags.data ?? `${benchDataDir(ctx.io.env)}/${DEFAULT_FILES[name]}`);
  const shownData = flags.data ?? `../shared/data/${DEFAULT_FILES[name]}`;
  const what = name === 'locomo' ? 'LoCoMo' : name === 'longmemeval' ? 'LongMemEval' : 'Test of Time';
  const raws = readJsonArray(data, what);
  if (name === 'tot') return benchTot({ ctx, raws, flags, data: shownData, extraction: e, extractor: label });
  if (flags.qa) return benchQa({ ctx, name, raws, flags, data: shownData, extraction: e, extractor: label });
  const progress = benchProgress(ctx);
  const options: RetrievalOptions = {
    tz: 'UTC',
    ks,
    limit: optionalInt(flags.limit, '--limit'),
    extraction: e,
    openStore: memoryStore(ctx),
    chunkTurns: parsePositiveInt(flags.chunkTurns, '--chunk-turns'),
    budgetTokens: optionalInt(flags.budgetTokens, '--budget-tokens'),
    onProgress: progress.onProgress,
  };
  const result =
    name === 'locomo' ? await runLocomoRetrieval(raws, options) : await runLongMemEvalRetrieval(raws, options);
  progress.done();
  const meta: RunMeta = {
    command: commandLine(rawName, flags),
    revision: sourceRevision(),
    data: shownData,
    extractor: label,
    chunkTurns: options.chunkTurns,
    ks,
    date: today(),
    seconds: progress.seconds(),
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
