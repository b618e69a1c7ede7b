import { withLease } from '../ingest/extraction-lease.js';
import { EXTRACTION_LEASE, SLEEP_LEASE, SLEEP_LEASE_TTL_MS, SLEEP_PURPOSE_PREFIX } from '../ingest/lease-rules.js';
import type { WorldStore } from '../ports/world-store.js';

/**
 * How a real sleep claims the memory. Every real sleep holds the sleep lease (a second sleep on the same database,
 * in any process, is refused at once: CONFLICT). It also holds the extraction lease while it reads and writes the
 * world, so no extraction (`pie ingest`, `ingest_episode`) or `pie forget` writes between what the sleep read and
 * what it writes: `wait` waits for a running extraction to finish (saying so once), `refuse` fails at once, `held`
 * means the caller already holds it (the light consolidation inside `pie ingest`).
 */
export interface SleepLeaseOptions {
  /** Who sleeps, after "sleep via ": "pie sleep --scope full", "POST /api/sleep". */
  via: string;
  extraction: 'wait' | 'refuse' | 'held';
  /** Called once when the sleep starts waiting for an extraction. */
  onWaiting?: ((message: string) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/** Runs `fn` holding the sleep lease and (unless `held`) the extraction lease; both are released afterwards. */
export function withSleepLease<T>(store: WorldStore, options: SleepLeaseOptions, fn: () => Promise<T>): Promise<T> {
  const purpose = `${SLEEP_PURPOSE_PREFIX}${options.via}`;
  // Both leases live SLEEP_LEASE_TTL_MS: they cannot be renewed while the sleep's transaction is open.
  return withLease(store, SLEEP_LEASE, { purpose, waitMs: 0, ttlMs: SLEEP_LEASE_TTL_MS }, () => {
    if (options.extraction === 'held') return fn();
    return withLease(
      store,
      EXTRACTION_LEASE,
      {
        purpose,
        waitMs: options.extraction === 'wait' ? undefined : 0,
        onWaiting: options.onWaiting,
        signal: options.signal,
        thenNote: 'this sleep runs on the world it leaves',
        ttlMs: SLEEP_LEASE_TTL_MS,
      },
      () => fn(),
    );
  });
}
