import { PieError } from '../domain/errors.js';
import type { WorldStore } from '../ports/world-store.js';
import type { Extracted } from './extract-one.js';
import { pause, withLease } from './extraction-lease.js';
import { BATCH_POLL_MS } from './lease-rules.js';
import { takePrepared } from './prepared.js';

/** The lease that claims one batch's extraction, between the applying run and the runs helping it. */
export function batchLease(key: string): string {
  return `batch:${key}`;
}

/**
 * Runs `fn` while holding the named lease, or returns `{ ran: false }` at once when someone else holds it. The lease
 * is renewed while `fn` runs (a slow model call keeps its claim) and released afterwards.
 */
export async function tryWithLease<T>(input: {
  store: WorldStore;
  name: string;
  purpose: string;
  fn: () => Promise<T>;
}): Promise<{ ran: true; value: T } | { ran: false }> {
  let started = false;
  try {
    const value = await withLease(input.store, input.name, { purpose: input.purpose, waitMs: 0 }, () => {
      started = true;
      return input.fn();
    });
    return { ran: true, value };
  } catch (error) {
    if (!started && error instanceof PieError && error.code === 'CONFLICT') return { ran: false };
    throw error;
  }
}

/**
 * How the applying run gets batch `key`'s extraction when other processes may be helping. It claims the batch (a
 * batch lease) and, holding the claim, takes the result another process prepared or else extracts it itself; the
 * claim is kept until `release` is called, after the result is applied, so no helper extracts it again meanwhile.
 * When another process holds the claim (it is extracting the batch right now), this run waits for it: `onDelegated`
 * is called once when the wait starts, so the caller can keep its own slots busy, and `onReturned` when it ends. A
 * helper that fails or dies leaves the batch to this run. Waiting is not cut short by Ctrl-C: like this run's own
 * calls in flight, the helper's call finishes first.
 */
export function obtainBatch(input: {
  store: WorldStore;
  key: string;
  purpose: string;
  extract: () => Promise<Extracted>;
  onDelegated: () => void;
  onReturned: () => void;
}): { outcome: Promise<{ extracted: Extracted; prepared: boolean }>; release: () => void } {
  const { store, key } = input;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const outcome = new Promise<{ extracted: Extracted; prepared: boolean }>((resolve, reject) => {
    let delegated = false;
    const claimOnce = () =>
      tryWithLease({
        store,
        name: batchLease(key),
        purpose: input.purpose,
        fn: async () => {
          if (delegated) {
            delegated = false;
            input.onReturned();
          }
          const prepared = await takePrepared(store, key);
          resolve(
            prepared ? { extracted: prepared, prepared: true } : { extracted: await input.extract(), prepared: false },
          );
          await released;
        },
      });
    const loop = async (): Promise<void> => {
      for (;;) {
        if ((await claimOnce()).ran) return;
        if (!delegated) {
          delegated = true;
          input.onDelegated();
        }
        await pause(BATCH_POLL_MS, undefined);
      }
    };
    loop().catch(reject);
  });
  return { outcome, release };
}

/**
 * The applying run's count of batches in flight that other processes are extracting, and a way to wait for one
 * batch while launching more whenever that count grows (each delegated batch frees one of the run's own slots).
 */
export function createDelegation(): {
  add: () => void;
  remove: () => void;
  count: () => number;
  awaitWhileFilling: <T>(pending: Promise<T>, fill: () => void) => Promise<T>;
} {
  let count = 0;
  let wake: (() => void) | null = null;
  return {
    add: () => {
      count++;
      wake?.();
    },
    remove: () => {
      count--;
    },
    count: () => count,
    async awaitWhileFilling(pending, fill) {
      for (;;) {
        const woke = new Promise<'woke'>((resolve) => {
          wake = () => resolve('woke');
        });
        const first = await Promise.race([pending.then((value) => ({ value })), woke]);
        wake = null;
        if (first !== 'woke') return first.value;
        fill();
      }
    },
  };
}
