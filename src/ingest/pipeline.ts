import { errorMessage } from '../domain/errors.js';
import { ZERO_USAGE, type Extractor, type Usage } from '../extract/types.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { WorldStore } from '../ports/world-store.js';
import { recordBatchObservations } from '../pyramid/from-batch.js';
import type { MatchVerifier } from '../resolve/resolver.js';
import { applyExtraction } from '../world/apply-batch.js';
import { createDelegation, obtainBatch } from './batch-claims.js';
import { extractOne, type Extracted } from './extract-one.js';
import { withExtractionLease, type HeldLease, type LeaseWaitOptions } from './extraction-lease.js';
import type { PlannedBatch } from './batches.js';
import { helpWhileWaiting, type HelpReport } from './help.js';
import { preparedKey } from './prepared.js';
import { loadResolution } from './name-index-loader.js';
import { addUsage, planPendingBatches, type SelectionOptions } from './selection.js';

export type IngestEvent =
  | { type: 'planned'; batches: number; episodes: number; tokens: number }
  | {
      type: 'batch';
      index: number;
      total: number;
      batchId: string;
      status: 'done' | 'failed';
      error?: string;
      usage: Usage;
      elapsedMs: number;
    }
  | { type: 'stopped'; reason: 'budget' | 'aborted' | 'lease_lost' };

export interface IngestSummary {
  runId: string;
  status: 'completed' | 'failed' | 'budget_exhausted' | 'interrupted';
  batches: { planned: number; done: number; failed: number; notStarted: number };
  episodes: number;
  usage: Usage;
  failures: { batchId: string; reason: string }[];
  mutations: Record<string, number>;
  resolution: Record<string, number>;
  /** Light consolidations run during and after the ingest. */
  consolidations: number;
  /**
   * Work shared with other `pie ingest` processes on the same database (`help`): batches this process extracted
   * for the run applying them while it waited, and batches this run applied from another process's extraction.
   */
  shared: { preparedForOthers: number; takenFromOthers: number; helpError?: string };
}

export interface IngestOptions extends SelectionOptions {
  store: WorldStore;
  extractor: Extractor;
  clock: Clock;
  newId: () => string;
  source: string;
  /** Model calls kept in flight while results are applied strictly in order. */
  concurrency: number;
  /** Stop launching batches once this many tokens (input + output) have been used. */
  budgetTokens?: number | undefined;
  embedder?: Embedder | undefined;
  verifier?: MatchVerifier | undefined;
  /**
   * Light consolidation: `run` is called after every `every` applied batches and once more at the end when batches
   * were applied since (the CLI runs a daydream sleep: importance recomputed, journaled and undoable).
   */
  consolidate?: { every: number; run: () => Promise<boolean> } | undefined;
  onEvent?: (event: IngestEvent) => void;
  signal?: AbortSignal;
  /**
   * How this run waits for the extraction lease when another run (here or in another process) is extracting into
   * the same database; by default it waits as long as it takes, saying so once through `onWaiting`.
   */
  lease?: Omit<LeaseWaitOptions, 'signal' | 'whileWaiting'> | undefined;
  /**
   * While another run holds the extraction lease, extract batches ahead for it (see help.ts) instead of only
   * waiting. Meant for model extractors, whose calls are the slow part. (Whatever this flag, a run extracting with a
   * model claims each batch before extracting it and takes what helpers prepared.)
   */
  help?: boolean | undefined;
}

/**
 * The extraction stage: pending episodes in chronological daily batches; each batch is extracted with a preamble of
 * the world as of the last applied batch, then applied in one transaction together with its checkpoint (the batch
 * record and the episodes' extraction status). Killing the process at any moment loses at most the batches in
 * flight; running again redoes exactly those. With `concurrency` N, up to N extractions run at once while results
 * are applied strictly in order, so batch i's preamble reflects the world up to batch i − N.
 */
export async function runIngest(options: IngestOptions): Promise<IngestSummary> {
  const purpose = options.lease?.purpose ?? `extraction (${options.source})`;
  let helped: HelpReport & { error?: string } = { prepared: 0, usage: { ...ZERO_USAGE } };
  const whileWaiting = options.help
    ? async (stop: AbortSignal): Promise<void> => {
        try {
          helped = await helpWhileWaiting({ ...options, purpose }, stop);
        } catch (cause) {
          // Helping is an optimisation: the run goes on waiting and then extracts what is left itself.
          helped = { ...helped, error: errorMessage(cause) };
        }
      }
    : undefined;
  const lease = {
    purpose,
    ...options.lease,
    ...(options.help
      ? { thenNote: 'this run extracts whatever is still waiting; meanwhile it extracts batches ahead for it' }
      : {}),
    signal: options.signal,
    whileWaiting,
  };
  return withExtractionLease(options.store, lease, (held) => extractHolding(options, held, helped, purpose));
}

/**
 * The extraction itself, run while holding the lease: pending episodes are planned only once the lease is held, so
 * a run that waited finds the work the other run did already done and N parallel runs leave the world one run
 * leaves.
 */
async function extractHolding(
  options: IngestOptions,
  held: HeldLease,
  helped: HelpReport & { error?: string },
  /** What this run calls itself as a holder (its batch claims say the same). */
  purpose: string,
): Promise<IngestSummary> {
  const { store, extractor, clock } = options;
  const plan = await planPendingBatches(options);
  const runId = options.newId();
  await store.runs.start({
    id: runId,
    startedAt: clock.now(),
    status: 'running',
    source: options.source,
    options: {
      extractor: extractor.label,
      concurrency: options.concurrency,
      budgetTokens: options.budgetTokens ?? null,
    },
  });
  options.onEvent?.({ type: 'planned', batches: plan.batches.length, episodes: plan.episodes, tokens: plan.tokens });

  const resolution = { store, embedder: options.embedder, verifier: options.verifier };
  let { index, resolver } = await loadResolution(resolution);
  const summary: IngestSummary = {
    runId,
    status: 'completed',
    batches: { planned: plan.batches.length, done: 0, failed: 0, notStarted: 0 },
    episodes: plan.episodes,
    usage: { ...helped.usage },
    failures: [],
    mutations: {},
    resolution: {},
    consolidations: 0,
    shared: {
      preparedForOthers: helped.prepared,
      takenFromOthers: 0,
      ...(helped.error === undefined ? {} : { helpError: helped.error }),
    },
  };
  let appliedSinceConsolidation = 0;
  const consolidate = async (): Promise<void> => {
    if (!options.consolidate || appliedSinceConsolidation === 0) return;
    // Counted only when it ran: one skipped (another sleep holds the lease) or failed was reported as such.
    if (await options.consolidate.run()) summary.consolidations++;
    appliedSinceConsolidation = 0;
  };
  const started = Date.now();
  const inFlight = new Map<number, Promise<Extracted>>();
  // Batch claims held until their batch is applied (with `help`); whatever is left is given up at the end.
  const claims = new Map<number, () => void>();
  const releaseClaim = (i: number): void => {
    claims.get(i)?.();
    claims.delete(i);
  };
  let launched = 0;
  // Set inside fill() too: typed by assertion so the checks below are not narrowed away.
  let stopReason = null as 'budget' | 'aborted' | 'lease_lost' | null;

  // Batches in flight that another process is extracting: they do not take one of this run's own slots.
  const delegation = createDelegation();
  const launch = (i: number, planned: PlannedBatch): void => {
    const extract = () => extractOne({ store, extractor, index, planned, tz: options.tz, signal: options.signal });
    // A model's batches are claimed, so a `pie ingest` helping this run never extracts one twice; the offline
    // rules are fast and nobody helps with them.
    if (extractor.kind !== 'llm') {
      inFlight.set(i, extract());
      return;
    }
    const key = preparedKey({ planned, extractorLabel: extractor.label });
    const obtained = obtainBatch({
      store,
      key,
      purpose,
      extract,
      onDelegated: delegation.add,
      onReturned: delegation.remove,
    });
    claims.set(i, obtained.release);
    inFlight.set(
      i,
      obtained.outcome.then(({ extracted, prepared }) => {
        if (prepared) summary.shared.takenFromOthers++;
        return extracted;
      }),
    );
  };
  const fill = (i: number): void => {
    while (
      launched < plan.batches.length &&
      launched < i + Math.max(1, options.concurrency) + delegation.count() &&
      stopReason === null
    ) {
      if (options.signal?.aborted) stopReason = 'aborted';
      else if (held.lost) stopReason = 'lease_lost';
      else if (options.budgetTokens !== undefined && spent(summary.usage) >= options.budgetTokens)
        stopReason = 'budget';
      else {
        const planned = plan.batches[launched];
        if (planned) launch(launched, planned);
        launched++;
      }
    }
  };

  try {
    for (let i = 0; i < plan.batches.length; i++) {
      fill(i);
      const pending = inFlight.get(i);
      const planned = plan.batches[i];
      if (!pending || !planned) break;
      inFlight.delete(i);
      // While waiting for batch i, a batch handed to another process frees a slot: launch the next one meanwhile.
      const outcome = await delegation.awaitWhileFilling(pending, () => fill(i));
      if (held.lost) {
        // Another run took the lease over (this one stopped renewing for a minute): it owns the rest of the work.
        stopReason = 'lease_lost';
        break;
      }
      addUsage(summary.usage, outcome.usage);
      const episodeIds = [...new Set(planned.slices.map((s) => s.episodeId))];
      const finished = planned.slices.filter((s) => s.part === s.parts).map((s) => s.episodeId);
      let error = outcome.ok ? null : outcome.error;
      if (outcome.ok) {
        let observed = 0;
        try {
          const report = await applyExtraction({
            store,
            result: outcome.result,
            resolver,
            index,
            recordedAt: clock.now(),
            newId: options.newId,
            checkpoint: async (tx, applied) => {
              observed = await recordBatchObservations({
                tx,
                result: outcome.result,
                ...applied,
                recordedAt: clock.now(),
              });
              if (finished.length > 0) await tx.episodes.setExtraction({ ids: finished, status: 'extracted' });
              await tx.runs.saveBatch(
                batchRecord({ runId, planned, episodeIds, usage: outcome.usage, error: null, now: clock.now() }),
              );
            },
          });
          mergeCounts(summary.mutations, { ...report.mutations, 'observation.add': observed });
          mergeCounts(summary.resolution, report.resolution);
          summary.batches.done++;
          appliedSinceConsolidation++;
        } catch (cause) {
          error = `applying the result failed: ${errorMessage(cause)}`;
          // The transaction rolled back; names it added to the in-memory index must go too.
          ({ index, resolver } = await loadResolution(resolution));
        }
      }
      if (error !== null) {
        summary.batches.failed++;
        summary.failures.push({ batchId: planned.id, reason: error });
        await store.transaction(async (tx) => {
          await tx.episodes.setExtraction({ ids: episodeIds, status: 'failed' });
          await tx.runs.saveBatch(
            batchRecord({ runId, planned, episodeIds, usage: outcome.usage, error, now: clock.now() }),
          );
        });
      }
      releaseClaim(i);
      options.onEvent?.({
        type: 'batch',
        index: i,
        total: plan.batches.length,
        batchId: planned.id,
        status: error === null ? 'done' : 'failed',
        ...(error === null ? {} : { error }),
        usage: { ...summary.usage },
        elapsedMs: Date.now() - started,
      });
      if (options.consolidate && appliedSinceConsolidation >= options.consolidate.every) await consolidate();
    }
  } finally {
    for (const release of claims.values()) release();
    claims.clear();
  }
  await consolidate();

  summary.batches.notStarted = plan.batches.length - summary.batches.done - summary.batches.failed;
  if (stopReason) options.onEvent?.({ type: 'stopped', reason: stopReason });
  summary.status =
    stopReason === 'budget'
      ? 'budget_exhausted'
      : stopReason === 'aborted' || stopReason === 'lease_lost'
        ? 'interrupted'
        : summary.batches.failed > 0
          ? 'failed'
          : 'completed';
  await store.runs.finish({
    id: runId,
    status: summary.status,
    finishedAt: clock.now(),
    counters: runCounters(summary),
  });
  return summary;
}

function batchRecord(input: {
  runId: string;
  planned: PlannedBatch;
  episodeIds: string[];
  usage: Usage;
  error: string | null;
  now: number;
}) {
  return {
    runId: input.runId,
    key: input.planned.id,
    status: input.error === null ? ('done' as const) : ('failed' as const),
    episodeIds: input.episodeIds,
    tokensIn: input.usage.inputTokens,
    tokensOut: input.usage.outputTokens,
    costUsd: input.usage.costUsd,
    error: input.error,
    startedAt: null,
    finishedAt: input.now,
  };
}

function spent(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens;
}

function mergeCounts(into: Record<string, number>, from: Partial<Record<string, number>>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + (v ?? 0);
}

function runCounters(s: IngestSummary): Record<string, number> {
  return {
    batchesPlanned: s.batches.planned,
    batchesDone: s.batches.done,
    batchesFailed: s.batches.failed,
    episodes: s.episodes,
    inputTokens: s.usage.inputTokens,
    outputTokens: s.usage.outputTokens,
    costMicroUsd: Math.round(s.usage.costUsd * 1e6),
    cachedCalls: s.usage.cachedCalls,
    calls: s.usage.calls,
    consolidations: s.consolidations,
  };
}
