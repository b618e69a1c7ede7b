/** What `pie bench` runs (commands/bench.ts registers it and loads this on use). */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
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
import { benchAblation } from './bench-ablation.js';
import { BENCH_NAMES } from './bench.js';
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

type BenchName = (typeof BENCH_NAMES)[number];

function parseName(name: string): BenchName {
  const found = BENCH_NAMES.find((n) => n === name);
  if (!found)
    throw new PieError('INVALID_ARGUMENT', `pie bench "${name}" is not known; use ${BENCH_NAMES.join(' or ')}.`);
  return found;
}

function parseKs(text: string): number[] {
  const ks = text.split(',').map((s) => parsePositiveInt(s.trim(), '--k'));
  return [...new Set(ks)].sort((a, b) => a - b);
}

/** `pie bench <name>`: the benchmark, run and reported. */
export async function bench(ctx: CommandContext, rawName: string, flags: BenchFlags): Promise<void> {
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
