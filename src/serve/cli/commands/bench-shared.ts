import { execFileSync } from 'node:child_process';
import { compose, createEmbedderFromEnv, createExtraction, createQueryModel } from '../../../compose.js';
import type { ProgressEvent } from '../../../bench/retrieval-options.js';
import type { WorldExtraction } from '../../../bench/world.js';
import { PieError } from '../../../domain/errors.js';
import { createOfflineExtractor } from '../../../extract/offline/index.js';
import type { LlmClient } from '../../../llm/index.js';
import type { WorldStore } from '../../../ports/world-store.js';
import { parsePositiveInt } from '../args.js';
import type { CommandContext } from '../context.js';
import { createProgress } from '../io.js';

export interface BenchFlags {
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
  conditions?: string;
  set?: string;
  conversations?: string;
  budgets?: string;
  maxAnswerWords?: string;
  labels?: string;
  examples?: string;
  generate?: boolean;
  compare?: boolean;
}

export const optionalInt = (value: string | undefined, flag: string): number | undefined =>
  value === undefined ? undefined : parsePositiveInt(value, flag);

export async function extractionFor(
  ctx: CommandContext,
  flags: BenchFlags,
): Promise<{ e: WorldExtraction; label: string }> {
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

/** The answering and judging models of a --qa run; an actionable error when none is configured. */
export async function qaModels(
  ctx: CommandContext,
  flags: BenchFlags,
): Promise<{ answer: { client: LlmClient; description: string }; judge: { client: LlmClient; description: string } }> {
  const services = await ctx.services();
  const answer = await createQueryModel({ services, llm: flags.llm });
  const judge = await createQueryModel({ services, llm: flags.judge ?? flags.llm });
  if (!answer || !judge) {
    throw new PieError(
      'LLM_UNAVAILABLE',
      'pie bench --qa needs a model to answer and judge; pass --llm provider:model (and --judge), set PIE_LLM, or set OPENAI_API_KEY or ANTHROPIC_API_KEY.',
    );
  }
  return { answer, judge };
}

/** Each world is a fresh in-memory SQLite database, opened through the composition root. */
export function memoryStore(ctx: CommandContext): () => Promise<WorldStore> {
  return async () => (await compose({ config: { ...ctx.config, dbPath: ':memory:' }, env: ctx.io.env })).store;
}

/** Progress with elapsed time and an ETA on a terminal (quiet with --json). */
export function benchProgress(ctx: CommandContext): {
  onProgress: (p: ProgressEvent) => void;
  done: () => void;
  seconds: () => number;
} {
  const progress = createProgress({ io: ctx.io, enabled: !ctx.config.json });
  const started = Date.now();
  return {
    onProgress: (p) => {
      const elapsed = (Date.now() - started) / 1000;
      const eta = p.done > 0 ? (elapsed / p.done) * (p.total - p.done) : null;
      const what = p.phase === 'ingest' ? 'building the world of' : 'querying';
      progress.update(
        `${p.done}/${p.total} · ${what} ${p.label} · ${elapsed.toFixed(0)} s${eta === null ? '' : `, ETA ${eta.toFixed(0)} s`}`,
      );
    },
    done: () => progress.done(),
    seconds: () => (Date.now() - started) / 1000,
  };
}

/** The checked-out commit, "+ local changes in src/" when src/ differs from it (figures depend on the source). */
export function sourceRevision(): string {
  try {
    // Outside a git checkout git says "fatal: not a git repository" on stderr: keep it off the user's terminal.
    const git = (args: string[]): string =>
      execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const head = git(['rev-parse', '--short', 'HEAD']);
    return git(['status', '--porcelain', '--', 'src']) === '' ? head : `${head} + local changes in src/`;
  } catch {
    return 'an unknown revision';
  }
}

/** The command as a person would type it to reproduce the figures (paths and secrets-free flags only). */
export function commandLine(name: string, flags: BenchFlags): string {
  const parts = ['pie bench', name];
  if (flags.data) parts.push(`--data ${flags.data}`);
  if (flags.limit) parts.push(`--limit ${flags.limit}`);
  if (flags.k !== '5,10') parts.push(`--k ${flags.k}`);
  if (flags.extractor !== 'offline') parts.push(`--extractor ${flags.extractor}`);
  if (flags.llm) parts.push(`--llm ${flags.llm}`);
  if (flags.chunkTurns !== '2') parts.push(`--chunk-turns ${flags.chunkTurns}`);
  if (flags.only) parts.push(`--only ${flags.only}`);
  if (flags.conditions) parts.push(`--conditions ${flags.conditions}`);
  if (flags.budgetTokens) parts.push(`--budget-tokens ${flags.budgetTokens}`);
  if (flags.qa) {
    parts.push('--qa');
    if (flags.judge) parts.push(`--judge ${flags.judge}`);
    if (flags.timeFormat !== 'auto') parts.push(`--time-format ${flags.timeFormat}`);
    if (flags.ragChunks !== '10') parts.push(`--rag-chunks ${flags.ragChunks}`);
    if (flags.out) parts.push(`--out ${flags.out}`);
  }
  return parts.join(' ');
}

export const today = (): string => new Date().toISOString().slice(0, 10);
