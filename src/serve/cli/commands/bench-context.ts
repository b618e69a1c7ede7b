import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { benchDataDir, DEFAULT_FILES, readJsonArray } from '../../../bench/data.js';
import { contextMarkdown, contextText, type ContextRunMeta } from '../../../bench/context/report.js';
import { runContextBench } from '../../../bench/context/run.js';
import {
  locomoContextUnits,
  longmemevalContextUnits,
  longmemevalIds,
  parsePositions,
  type ContextUnit,
} from '../../../bench/context/units.js';
import { writeMarkedSection } from '../../../bench/markdown.js';
import type { WorldExtraction } from '../../../bench/world.js';
import { PieError } from '../../../domain/errors.js';
import { MAX_CONTEXT_TOKENS, MIN_CONTEXT_TOKENS } from '../../../query/ask.js';
import { parsePositiveInt } from '../args.js';
import type { CommandContext } from '../context.js';
import {
  benchProgress,
  commandLine,
  memoryStore,
  optionalInt,
  sourceRevision,
  today,
  type BenchFlags,
} from './bench-shared.js';
import { parseTimeFormat } from './ask.js';
import { benchQa } from './bench-qa.js';
import { isObject } from '../../../import/common.js';

export const CONTEXT_SETS = ['locomo', 'longmemeval', 'longmemeval-oracle-dev30', 'longmemeval-heldout'] as const;
type ContextSet = (typeof CONTEXT_SETS)[number];

export function parseBudgets(text: string): number[] {
  const budgets = text.split(',').map((s) => parsePositiveInt(s.trim(), '--budgets'));
  for (const b of budgets) {
    if (b < MIN_CONTEXT_TOKENS || b > MAX_CONTEXT_TOKENS) {
      throw new PieError(
        'INVALID_ARGUMENT',
        `--budgets ${b} is out of range; each budget is a whole number of tokens from ${MIN_CONTEXT_TOKENS} to ${MAX_CONTEXT_TOKENS}.`,
      );
    }
  }
  return [...new Set(budgets)].sort((a, b) => a - b);
}

/**
 * `pie bench context`: answer in context at token budgets, PIE's compiled context vs naive_rag, on LoCoMo
 * (`--conversations 1-5` tuning, `6-10` held out), LongMemEval S dev30 (tuning) or the LongMemEval oracle questions
 * outside dev30 (held out).
 */
export async function benchContext(input: {
  ctx: CommandContext;
  flags: BenchFlags;
  extraction: WorldExtraction;
  extractor: string;
}): Promise<void> {
  const { ctx, flags } = input;
  const set = parseSet(flags.set ?? 'locomo');
  const budgets = parseBudgets(flags.budgets ?? '1000,2000,4000,8000');
  const maxAnswerWords = parsePositiveInt(flags.maxAnswerWords ?? '6', '--max-answer-words');
  const { units, data, part, raws } = loadUnits(ctx, set, flags);
  const services = await ctx.services();
  if (flags.qa) {
    // With a model: answer and judge at the first budget, so the proxy can be checked against real accuracy.
    const tokens = budgets[0] ?? 4000;
    const name = set === 'locomo' ? 'locomo' : 'longmemeval';
    const contextTokens = { tokens, tokenizer: services.tokenizer() };
    return benchQa({ ...input, name, raws, data, part, contextTokens, proxyMaxWords: maxAnswerWords });
  }
  const progress = benchProgress(ctx);
  const chunkTurns = parsePositiveInt(flags.chunkTurns, '--chunk-turns');
  const result = await runContextBench(units, {
    tz: 'UTC',
    budgets,
    extraction: input.extraction,
    openStore: memoryStore(ctx),
    tokenizer: services.tokenizer(),
    chunkTurns,
    format: parseTimeFormat(flags.timeFormat),
    maxAnswerWords,
    onProgress: progress.onProgress,
  });
  progress.done();
  const meta: ContextRunMeta = {
    command: contextCommandLine(flags),
    revision: sourceRevision(),
    data,
    part,
    extractor: input.extractor,
    chunkTurns,
    budgets,
    maxAnswerWords,
    date: today(),
    seconds: progress.seconds(),
  };
  const json = { benchmark: 'context', meta, ...result, table: result.table.toJSON() };
  if (flags.out) writeFileSync(flags.out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.report) {
    const section = flags.section ?? `context-${set}${flags.conversations ? `-${flags.conversations}` : ''}`;
    writeMarkedSection(flags.report, section, contextMarkdown(result, meta));
  }
  const text = `${part}\n${contextText(result, budgets)}\n\n${result.questions} questions (${result.longAnswers} with long answers left out), ${meta.seconds.toFixed(0)} s, ${input.extractor}`;
  ctx.emit({ text, json });
}

function parseSet(text: string): ContextSet {
  const found = CONTEXT_SETS.find((s) => s === text);
  if (!found) {
    throw new PieError('INVALID_ARGUMENT', `--set "${text}" is not known; use ${CONTEXT_SETS.join(', ')}.`);
  }
  return found;
}

interface LoadedSet {
  units: ContextUnit[];
  /** The raw records chosen (LoCoMo samples, LongMemEval questions), for --qa. */
  raws: unknown[];
  data: string;
  part: string;
}

function loadUnits(ctx: CommandContext, set: ContextSet, flags: BenchFlags): LoadedSet {
  const dir = benchDataDir(ctx.io.env);
  const limit = optionalInt(flags.limit, '--limit');
  if (set === 'locomo') {
    const data = resolve(flags.data ?? `${dir}/${DEFAULT_FILES.locomo}`);
    const samples = readJsonArray(data, 'LoCoMo');
    const which = flags.conversations ?? 'all';
    const positions = parsePositions(which, samples.length).slice(0, limit);
    const tuned = positions.every((p) => p <= 5) ? ' (tuning set)' : positions.every((p) => p > 5) ? ' (held out)' : '';
    const units = locomoContextUnits({ samples, positions, tz: 'UTC' });
    return {
      units,
      raws: positions.flatMap((p) => (samples[p - 1] === undefined ? [] : [samples[p - 1]])),
      data: flags.data ?? `../shared/data/${DEFAULT_FILES.locomo}`,
      part: `LoCoMo conversations ${which}${tuned}`,
    };
  }
  const devPath = resolve(`${dir}/${DEFAULT_FILES.longmemeval}`);
  if (set === 'longmemeval') {
    const data = resolve(flags.data ?? devPath);
    const all = readJsonArray(data, 'LongMemEval');
    const units = longmemevalContextUnits({ raws: all, tz: 'UTC', limit });
    const shown = flags.data ?? `../shared/data/${DEFAULT_FILES.longmemeval}`;
    return {
      units,
      raws: chosen(all, units),
      data: shown,
      part: `LongMemEval ${shown.replace(/^.*\//, '')}${flags.data ? '' : ' (tuning set)'}`,
    };
  }
  const data = resolve(flags.data ?? `${dir}/${DEFAULT_FILES.longmemevalOracle}`);
  const dev30 = longmemevalIds(readJsonArray(devPath, 'LongMemEval dev30'));
  const all = readJsonArray(data, 'LongMemEval');
  // The oracle file's dev30 questions tune the evidence-only setting; every other oracle question is held out.
  const tuning = set === 'longmemeval-oracle-dev30';
  const units = longmemevalContextUnits({
    raws: all,
    tz: 'UTC',
    ...(tuning ? { only: dev30 } : { exclude: dev30 }),
    limit,
  });
  return {
    units,
    raws: chosen(all, units),
    data: flags.data ?? `../shared/data/${DEFAULT_FILES.longmemevalOracle}`,
    part: tuning
      ? 'LongMemEval oracle, the dev30 questions (tuning; haystacks are the evidence sessions only)'
      : 'LongMemEval oracle questions outside dev30 (held out; haystacks are the evidence sessions only)',
  };
}

/** The LongMemEval records whose question is one of the units (same order). */
function chosen(raws: readonly unknown[], units: readonly ContextUnit[]): unknown[] {
  const ids = new Set(units.map((u) => u.label));
  return raws.filter((r) => isObject(r) && typeof r.question_id === 'string' && ids.has(r.question_id));
}

function contextCommandLine(flags: BenchFlags): string {
  const parts = [commandLine('context', flags)];
  if (flags.set) parts.push(`--set ${flags.set}`);
  if (flags.conversations) parts.push(`--conversations ${flags.conversations}`);
  if (flags.budgets) parts.push(`--budgets ${flags.budgets}`);
  if (flags.maxAnswerWords) parts.push(`--max-answer-words ${flags.maxAnswerWords}`);
  return parts.join(' ');
}
