import { ZERO_USAGE, type Extractor, type Usage } from '../extract/types.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { WorldStore } from '../ports/world-store.js';
import type { MatchVerifier } from '../resolve/resolver.js';
import { batchLease, tryWithLease } from './batch-claims.js';
import type { PlannedBatch } from './batches.js';
import { pause } from './extraction-lease.js';
import { extractOne } from './extract-one.js';
import { BATCH_POLL_MS } from './lease-rules.js';
import { loadResolution } from './name-index-loader.js';
import { isPrepared, preparedKey, savePrepared } from './prepared.js';
import { addUsage, planPendingBatches, type SelectionOptions } from './selection.js';

/**
 * How far ahead of the applying run a helper may extract, in batches. A helper's preamble shows the world as it is
 * when it starts a batch, so this bounds how stale a prepared batch's view of the world can be (like `--concurrency`
 * does for one run's own calls in flight).
 */
export const HELP_WINDOW = 8;

export interface HelpReport {
  /** Batches this process extracted and left for the applying run. */
  prepared: number;
  usage: Usage;
}

/**
 * While another `pie ingest` holds the extraction lease, this process extracts batches for it: among the first
 * HELP_WINDOW batches still waiting, one that nobody has prepared or claimed is claimed (a batch lease), extracted
 * and kept as a prepared result; then the next. It stops when `stop` fires (it got the extraction lease itself, or
 * the user stopped it) or nothing is left waiting. A failed extraction is not kept (the applying run redoes it) nor
 * tried again here.
 */
export async function helpWhileWaiting(
  options: SelectionOptions & {
    store: WorldStore;
    extractor: Extractor;
    clock: Clock;
    embedder?: Embedder | undefined;
    verifier?: MatchVerifier | undefined;
    purpose: string;
  },
  stop: AbortSignal,
): Promise<HelpReport> {
  const { store, extractor } = options;
  const report: HelpReport = { prepared: 0, usage: { ...ZERO_USAGE } };
  const plan = await planPendingBatches(options);
  if (plan.batches.length === 0) return report;
  const { index } = await loadResolution({ store, embedder: options.embedder, verifier: options.verifier });
  const failed = new Set<string>();
  while (!stop.aborted) {
    const waiting = new Set((await store.episodes.list({ extraction: 'pending' })).map((e) => e.id));
    const from = plan.batches.findIndex((b) => b.slices.some((s) => waiting.has(s.episodeId)));
    if (from < 0) break;
    let worked = false;
    for (const planned of plan.batches.slice(from, from + HELP_WINDOW)) {
      if (stop.aborted) break;
      const key = preparedKey({ planned, extractorLabel: extractor.label });
      if (failed.has(key) || (await isPrepared(store, key))) continue;
      const claim = await tryWithLease({
        store,
        name: batchLease(key),
        purpose: options.purpose,
        fn: async () => {
          // Re-checked under the claim: the applying run may have taken and applied this batch meanwhile.
          if ((await isPrepared(store, key)) || !(await stillWaiting(store, planned))) return false;
          const extracted = await extractOne({ store, extractor, index, planned, tz: options.tz });
          addUsage(report.usage, extracted.usage);
          if (!extracted.ok) {
            failed.add(key);
            return false;
          }
          await savePrepared({ store, key, extracted, now: options.clock.now() });
          report.prepared++;
          return true;
        },
      });
      if (claim.ran && claim.value) {
        worked = true;
        break;
      }
    }
    if (!worked) await pause(BATCH_POLL_MS, stop);
  }
  return report;
}

/** Whether every episode of the batch still waits for extraction (none applied, none failed meanwhile). */
async function stillWaiting(store: WorldStore, planned: PlannedBatch): Promise<boolean> {
  const ids = [...new Set(planned.slices.map((s) => s.episodeId))];
  const episodes = await store.episodes.getMany(ids);
  return episodes.length === ids.length && episodes.every((e) => e.extraction === 'pending');
}
