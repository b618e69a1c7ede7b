import { errorMessage, PieError } from '../domain/errors.js';
import type { WorldStore } from '../ports/world-store.js';
import { runSleep } from './sleep.js';

/** Applied batches between two light consolidations during `pie ingest` (0 turns them off). */
export const DEFAULT_CONSOLIDATE_EVERY = 50;

/**
 * The light consolidation `pie ingest` runs every N batches and at the end: a daydream sleep (importance recomputed
 * over the whole graph, so the next batches' preambles and the entity lists rank by it), journaled and logged like
 * any sleep run and undoable with `pie undo`. A failure is reported, never fatal: the batches are already stored.
 * Resolves to whether it ran (a skipped or failed one is not counted as done).
 */
export function lightConsolidation(input: {
  store: WorldStore;
  now: () => number;
  newId: () => string;
  onWarning: (text: string) => void;
}): () => Promise<boolean> {
  return async () => {
    try {
      await runSleep({
        store: input.store,
        scope: 'daydream',
        dryRun: false,
        now: input.now(),
        runId: `sleep-${input.newId()}`,
        newId: input.newId,
        // Inside `pie ingest`, which holds the extraction lease; refused (a warning) while a pie sleep runs.
        lease: { via: 'pie ingest (light consolidation)', extraction: 'held' },
      });
      return true;
    } catch (error) {
      // Another process's sleep holds the sleep lease: it does this consolidation's work and more.
      const busy = error instanceof PieError && error.code === 'CONFLICT';
      input.onWarning(
        busy
          ? 'Light consolidation skipped: another sleep is running on this database and recomputes importance itself; the ingested batches are kept.'
          : `Light consolidation failed (the ingested batches are kept): ${errorMessage(error)}`,
      );
      return false;
    }
  };
}
