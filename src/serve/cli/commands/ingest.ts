import type { Command } from 'commander';
import { createExtraction, type ExtractorChoice, type Services } from '../../../compose.js';
import type { Conversation, ImportFormat } from '../../../domain/conversation.js';
import { IMPORT_FORMATS } from '../../../domain/conversation.js';
import { PieError, errorMessage } from '../../../domain/errors.js';
import { parseDateArgument } from '../../../domain/time.js';
import { estimateExtractionTokens } from '../../../extract/llm/index.js';
import { importConversations, planImport } from '../../../import/index.js';
import { planExtractionDryRun } from '../../../ingest/dry-run.js';
import { indexEmbeddings } from '../../../ingest/embed-index.js';
import { runImportStage, type ImportReport } from '../../../ingest/import-stage.js';
import { loadNameIndex } from '../../../ingest/name-index-loader.js';
import { runIngest } from '../../../ingest/pipeline.js';
import { DEFAULT_CONSOLIDATE_EVERY, lightConsolidation } from '../../../metabolism/light.js';
import { DEFAULT_MODELS, estimateCost, formatModelRef, loadPrices, selectModel } from '../../../llm/index.js';
import type { Embedder } from '../../../ports/embedder.js';
import type { ModelRef } from '../../../ports/llm.js';
import { parseNonNegativeInt, parsePositiveInt } from '../args.js';
import type { CommandContext } from '../context.js';
import { num, plural } from '../format.js';
import { createProgress } from '../io.js';
import type { ActionRunner } from '../run.js';
import { redactionPolicy } from '../../../privacy/policy.js';
import { previewRedaction } from '../../../privacy/preview.js';
import { batchProgressLine, renderDryRun, renderExtraction, renderImport, renderRedaction } from './ingest-render.js';

interface IngestFlags {
  format: string;
  extractor: string;
  llm?: string;
  since?: string;
  limit?: string;
  dryRun?: boolean;
  budgetTokens?: string;
  concurrency?: string;
  maxBatchTokens: string;
  consolidateEvery: string;
  wait: boolean;
  includeForgotten?: boolean;
}

export function registerIngest(program: Command, run: ActionRunner): void {
  program
    .command('ingest')
    .description(
      'import a chat export or notes, then extract the temporal world model from new and changed conversations (resumable)',
    )
    .argument(
      '<path>',
      'ChatGPT/Claude export (.zip or conversations.json), JSONL log, notes file or folder, benchmark file',
    )
    .option('--format <format>', `input format: auto|${IMPORT_FORMATS.join('|')}`, 'auto')
    .option('--extractor <kind>', 'auto (a model when one is configured, else offline rules) | llm | offline', 'auto')
    .option(
      '--llm <provider:model>',
      'model to extract with, e.g. openai:gpt-5-mini, anthropic:claude-sonnet-4-5, ollama:qwen2.5:14b (default $PIE_LLM)',
    )
    .option('--since <date>', 'only extract conversations from this date on (YYYY-MM-DD)')
    .option('--limit <n>', 'extract at most this many conversations (the earliest waiting ones)')
    .option('--dry-run', 'write nothing: show the daily batches with exact prompt tokens and the estimated cost')
    .option('--budget-tokens <n>', 'stop cleanly between batches once this many model tokens (input + output) are used')
    .option(
      '--concurrency <n>',
      'model calls in flight; results are still applied in order (default 4 for cloud models, 1 otherwise)',
    )
    .option(
      '--max-batch-tokens <n>',
      'token cap for the conversations of one batch; longer days and conversations are split',
      '12000',
    )
    .option(
      '--consolidate-every <n>',
      'recompute importance (a daydream sleep, undoable) every n applied batches and at the end; 0 turns it off',
      String(DEFAULT_CONSOLIDATE_EVERY),
    )
    .option(
      '--include-forgotten',
      'import conversations you asked PIE to forget (pie forget) again, and stop leaving them out of later imports',
    )
    .option(
      '--no-wait',
      'when another extraction is running on this database, stop with exit 5 instead of waiting for it to finish',
    )
    .action((path: string, flags: IngestFlags) => run((ctx) => ingest(ctx, path, flags)));
}

async function ingest(ctx: CommandContext, path: string, flags: IngestFlags): Promise<void> {
  const format = parseFormat(flags.format);
  const choice = parseChoice(flags.extractor);
  const tz = ctx.config.tz;
  const since = flags.since === undefined ? undefined : parseDateArgument(flags.since, tz);
  const limit = flags.limit === undefined ? undefined : parsePositiveInt(flags.limit, '--limit');
  const budgetTokens =
    flags.budgetTokens === undefined ? undefined : parsePositiveInt(flags.budgetTokens, '--budget-tokens');
  const maxBatchTokens = parsePositiveInt(flags.maxBatchTokens, '--max-batch-tokens');
  const consolidateEvery = parseNonNegativeInt(flags.consolidateEvery, '--consolidate-every');
  const plan = await planImport({ path, format });
  // A dry run writes nothing, not even a database file that does not exist yet.
  const services = await ctx.services({ absentIsEmpty: flags.dryRun === true });
  // A dry run only needs to know which model would be used (to price it): no provider is built, no key needed.
  const model = choice === 'offline' ? null : selectModel({ flag: flags.llm, env: services.env });
  if (choice === 'llm' && !model) {
    throw new PieError(
      'LLM_UNAVAILABLE',
      'No model is configured for --extractor llm; pass --llm provider:model, set PIE_LLM, or set OPENAI_API_KEY or ANTHROPIC_API_KEY.',
    );
  }
  const concurrency =
    flags.concurrency !== undefined
      ? parsePositiveInt(flags.concurrency, '--concurrency')
      : model && ['openai', 'anthropic', 'openai-compatible'].includes(model.ref.provider)
        ? 4
        : 1;
  const progress = createProgress({ io: ctx.io, enabled: !ctx.config.json });
  const dryRun = flags.dryRun ?? false;
  const incoming: Conversation[] = [];
  const imported = await runImportStage({
    store: services.store,
    events: importConversations({ path, format: plan.format, tz }),
    clock: services.clock,
    tz,
    dryRun,
    includeForgotten: flags.includeForgotten ?? false,
    onChange: (c) => incoming.push(c),
    onProgress: (p) =>
      progress.update(`Importing… ${plural(p.conversations, 'conversation')}, ${plural(p.turns, 'turn')}`),
  });
  progress.done();
  const importText = renderImport({ report: imported, label: plan.label, format: plan.format, tz });
  refuseWhenNothingImported({ ctx, imported, importText, label: plan.label, format: plan.format });

  if (dryRun) {
    const ref = model?.ref ?? { provider: 'openai', model: DEFAULT_MODELS.openai };
    const description = model ? `${formatModelRef(model.ref)} (from ${model.source})` : 'offline rules';
    const tokenizer = services.tokenizer();
    const index = await loadNameIndex(services.store);
    const dry = await planExtractionDryRun({
      store: services.store,
      index,
      incoming,
      tz,
      maxBatchTokens,
      since,
      limit,
      estimate: (batch) => estimateExtractionTokens({ batch, tokenizer }),
      onProgress: (done, total) => progress.update(`Counting prompt tokens… batch ${done} of ${total}`),
    });
    progress.done();
    const cost = await costOf(services, ref, dry.inputTokens, dry.outputTokensGuess);
    const categories = redactionPolicy({ ref, env: services.env });
    const redaction = previewRedaction(
      incoming.flatMap((c) => c.turns.map((t) => t.text)),
      categories,
    );
    ctx.emit({
      text: `${importText}\n\n${renderDryRun({ dry, ref, extraction: description, cost, tokenizer: tokenizer.name })}\n${renderRedaction({ ref, categories, redaction })}`,
      json: {
        input: plan.label,
        format: plan.format,
        import: imported,
        extraction: { ...dry, model: ref, cost, redaction: { categories: [...categories], ...redaction } },
      },
    });
    return;
  }

  const extraction = await createExtraction({ services, choice, llm: flags.llm });
  if (!ctx.config.json) ctx.io.stdout(`${importText}\nExtracting with ${extraction.description}…\n`);
  const estimate = extraction.model ? await upfrontEstimate(services, extraction.model.ref) : null;
  const abort = new AbortController();
  const onSignal = (): void => {
    ctx.io.stderr('\nStopping after the batches in flight (press Ctrl-C again to quit at once)…\n');
    abort.abort();
    process.off('SIGINT', onSignal);
  };
  process.on('SIGINT', onSignal);
  try {
    const summary = await runIngest({
      store: services.store,
      extractor: extraction.extractor,
      clock: services.clock,
      newId: services.newId,
      source: plan.label,
      tz,
      since,
      limit,
      maxBatchTokens,
      concurrency,
      budgetTokens,
      // Two `pie ingest` with a model on one database share the batches (help.ts); the offline rules are fast.
      help: extraction.extractor.kind === 'llm',
      verifier: extraction.verifier,
      embedder: extraction.embedder,
      signal: abort.signal,
      lease: {
        purpose: `pie ingest ${plan.label}`,
        waitMs: flags.wait ? undefined : 0,
        onWaiting: (message) => ctx.io.stderr(`${message}\n`),
      },
      consolidate:
        consolidateEvery === 0
          ? undefined
          : {
              every: consolidateEvery,
              run: lightConsolidation({
                store: services.store,
                now: () => services.clock.now(),
                newId: services.newId,
                onWarning: (text) => ctx.io.stderr(`${text}\n`),
              }),
            },
      onEvent: (e) => {
        if (e.type === 'planned' && estimate && !ctx.config.json && e.batches > 0) ctx.io.stdout(`${estimate(e)}\n`);
        if (e.type === 'batch') progress.update(batchProgressLine(e));
        if (e.type === 'stopped' && e.reason === 'lease_lost') {
          ctx.io.stderr(
            '\nAnother run took over the extraction (this one had not renewed its claim for a minute); it extracts the rest.\n',
          );
        }
      },
    });
    progress.done();
    const vectors = extraction.embedder ? await embedStage(ctx, services, extraction.embedder, abort.signal) : null;
    const stats = await services.store.stats();
    const extractionText = renderExtraction({
      summary,
      extraction: extraction.description,
      stats,
      since,
      tz,
    });
    ctx.emit({
      text: vectors ? `${extractionText}\n${vectors.text}` : extractionText,
      json: {
        input: plan.label,
        format: plan.format,
        import: imported,
        extraction: { extractor: extraction.extractor.label, ...summary },
        ...(vectors ? { vectors: vectors.json } : {}),
      },
    });
    if (summary.status === 'budget_exhausted') {
      throw new PieError(
        'BUDGET_EXCEEDED',
        `Stopped at the --budget-tokens limit with ${summary.batches.notStarted} batches left; run pie ingest again (with a larger budget) to continue.`,
      );
    }
    if (summary.status === 'failed' && summary.batches.done === 0) {
      throw new PieError(
        'INTERNAL',
        `Every batch failed; the first reason: ${summary.failures[0]?.reason ?? 'unknown'}.`,
      );
    }
  } finally {
    process.off('SIGINT', onSignal);
  }
}

/**
 * Every record of the input was skipped and none imported: the input is bad (a log of malformed lines, an export
 * none of whose conversations has a plausible time), so the run says what was skipped and exits non-zero before
 * extracting anything. An input with nothing new (unchanged, forgotten or older than what is stored) is not that.
 */
function refuseWhenNothingImported(input: {
  ctx: CommandContext;
  imported: ImportReport;
  importText: string;
  label: string;
  format: string;
}): void {
  const { ctx, imported } = input;
  if (imported.conversations > 0 || imported.forgotten > 0 || imported.skipped.length === 0) return;
  ctx.emit({ text: input.importText, json: { input: input.label, format: input.format, import: imported } });
  throw new PieError(
    'INVALID_DATA',
    `Nothing in "${input.label}" could be imported (${imported.skipped.length} skipped, each with its reason above); fix the input, or pass --format if it was read as the wrong kind.`,
  );
}

/** Vectors for the retrieval lane when PIE_EMBEDDER is set; a failure is reported, and a re-run finishes it. */
async function embedStage(
  ctx: CommandContext,
  services: Services,
  embedder: Embedder,
  signal: AbortSignal,
): Promise<{ text: string; json: Record<string, unknown> }> {
  const progress = createProgress({ io: ctx.io, enabled: !ctx.config.json });
  try {
    const done = await indexEmbeddings({
      store: services.store,
      embedder,
      clock: services.clock,
      signal,
      onProgress: (n, kind) =>
        progress.update(`Embedding with ${embedder.model}… ${n} ${kind === 'entity' ? 'entities' : 'episodes'}`),
    });
    progress.done();
    return {
      text: `Vectors (${embedder.model}): ${done.entities} entities and ${done.episodes} episodes embedded.`,
      json: { model: embedder.model, ...done },
    };
  } catch (error) {
    progress.done();
    const message = `Embedding with ${embedder.model} failed (${errorMessage(error)}); the world model is saved, and running pie ingest again finishes the vectors.`;
    ctx.io.stderr(`pie: ${message}\n`);
    return { text: message, json: { model: embedder.model, error: errorMessage(error) } };
  }
}

/**
 * The estimate shown before any money is spent: conversation tokens plus the fixed part of every prompt (system
 * prompt and schema, measured once), priced for the model. `--dry-run` gives the exact figure.
 */
async function upfrontEstimate(
  services: Services,
  ref: ModelRef,
): Promise<(plan: { batches: number; episodes: number; tokens: number }) => string> {
  const empty = { id: 'x', date: 0, tz: 'UTC', episodes: [], preamble: EMPTY_PREAMBLE };
  const overhead = estimateExtractionTokens({ batch: empty, tokenizer: services.tokenizer() }).inputTokens;
  const prices = await loadPrices({ env: services.env });
  return (plan) => {
    const input = plan.tokens + plan.batches * overhead;
    const output = Math.round(plan.batches * 300 + plan.episodes * 150 + 0.08 * input);
    const cost = estimateCost({ prices, ref, inputTokens: input, outputTokens: output });
    const money = cost.known ? `, about $${cost.usd.toFixed(2)}` : ' (no price known for this model)';
    return (
      `About to extract ${plural(plan.batches, 'batch', 'batches')} (${plural(plan.episodes, 'conversation')}): ` +
      `~${num(input)} input and ~${num(output)} output tokens${money}. Ctrl-C stops between batches; run again to resume.`
    );
  };
}

const EMPTY_PREAMBLE = {
  recentEntities: [],
  recentTransitions: [],
  activeProjects: [],
  mentionedEntities: [],
  currentPeriod: null,
};

async function costOf(services: Services, ref: ModelRef, inputTokens: number, outputTokens: number) {
  const prices = await loadPrices({ env: services.env });
  return {
    input: estimateCost({ prices, ref, inputTokens, outputTokens: 0 }),
    output: estimateCost({ prices, ref, inputTokens: 0, outputTokens }),
  };
}

function parseFormat(value: string): ImportFormat | 'auto' {
  if (value === 'auto' || (IMPORT_FORMATS as readonly string[]).includes(value)) return value as ImportFormat | 'auto';
  throw new PieError(
    'INVALID_ARGUMENT',
    `--format "${value}" is not known; use auto or one of ${IMPORT_FORMATS.join(', ')}.`,
  );
}

function parseChoice(value: string): ExtractorChoice {
  if (value === 'auto' || value === 'llm' || value === 'offline') return value;
  throw new PieError('INVALID_ARGUMENT', `--extractor "${value}" is not known; use auto, llm or offline.`);
}
