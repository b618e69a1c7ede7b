import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { PieError } from '../domain/errors.js';
import type { LeaseHolder } from '../ports/lease-store.js';
import type { WorldStore } from '../ports/world-store.js';
import {
  EXTRACTION_LEASE,
  LEASE_POLL_MS,
  LEASE_RENEW_MS,
  LEASE_TTL_MS,
  holderIsDead,
  runningClause,
} from './lease-rules.js';

export interface LeaseWaitOptions {
  /** What the holder is, shown to runs that wait for it ("pie ingest", "ingest_episode"). */
  purpose: string;
  /** How long to wait for a busy lease: 0 refuses at once; undefined waits as long as it takes. */
  waitMs?: number | undefined;
  /** Called once when the lease is busy and the run starts waiting. */
  onWaiting?: ((message: string) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** Wall clock (milliseconds); leases are about real time, never the configured "now". */
  wallNow?: () => number;
  /** What the waiting message says happens next (default: this run extracts whatever is still waiting). */
  thenNote?: string | undefined;
  /**
   * Work to do while waiting: started when the lease is first found busy, stopped (its signal fires) as soon as the
   * lease is taken or the wait ends otherwise, and awaited before the holder's own work begins.
   */
  whileWaiting?: ((stop: AbortSignal) => Promise<void>) | undefined;
  /**
   * How long the lease lives without a renewal (default LEASE_TTL_MS). Work done in one long store transaction (a
   * sleep) cannot renew while the transaction is open, so it holds its leases longer: a holder that dies on this
   * host is still seen dead at once; one on another host holds the work until this expires.
   */
  ttlMs?: number | undefined;
}

/** The claim a run holds while it extracts: `lost` turns true when a renewal found the lease taken over. */
export interface HeldLease {
  readonly lost: boolean;
}

/**
 * Runs `fn` holding the extraction lease of `store`'s database: waits (or refuses) while another run, in this
 * process or another, holds it; renews it while `fn` runs; releases it afterwards, whatever happens. A run killed
 * with -9 leaves its lease behind until it expires or, on the same machine, at once (its process is gone).
 */
export function withExtractionLease<T>(
  store: WorldStore,
  options: LeaseWaitOptions,
  fn: (lease: HeldLease) => Promise<T>,
): Promise<T> {
  return withLease(store, EXTRACTION_LEASE, options, fn);
}

/** The same for any named lease (`EXTRACTION_LEASE`, `SLEEP_LEASE`). */
export async function withLease<T>(
  store: WorldStore,
  name: string,
  options: LeaseWaitOptions,
  fn: (lease: HeldLease) => Promise<T>,
): Promise<T> {
  const wallNow = options.wallNow ?? Date.now;
  const holder: LeaseHolder = { id: randomUUID(), pid: process.pid, host: hostname(), purpose: options.purpose };
  const helping = new AbortController();
  let helper: Promise<void> | undefined;
  const onBusy = (): void => {
    if (options.whileWaiting && helper === undefined) helper = options.whileWaiting(helping.signal);
  };
  try {
    await acquire(store, name, holder, options, wallNow, onBusy);
  } finally {
    helping.abort();
    await helper;
  }
  const state = { lost: false };
  const timer = setInterval(() => {
    store.leases
      .renew({ name, holderId: holder.id, now: wallNow(), ttlMs: options.ttlMs ?? LEASE_TTL_MS })
      .then((held) => {
        if (!held) state.lost = true;
      })
      .catch(() => undefined);
  }, LEASE_RENEW_MS);
  timer.unref();
  try {
    return await fn(state);
  } finally {
    clearInterval(timer);
    await store.leases.release({ name, holderId: holder.id }).catch(() => undefined);
  }
}

async function acquire(
  store: WorldStore,
  name: string,
  holder: LeaseHolder,
  options: LeaseWaitOptions,
  wallNow: () => number,
  onBusy: () => void,
): Promise<void> {
  const started = wallNow();
  const self = { host: holder.host, pidAlive };
  let announced = false;
  for (;;) {
    const outcome = await store.leases.acquire({
      name,
      holder,
      now: wallNow(),
      ttlMs: options.ttlMs ?? LEASE_TTL_MS,
      isDead: (h) => holderIsDead(h, self),
    });
    if (outcome.taken) return;
    const running = runningClause(outcome.lease, wallNow());
    if (options.waitMs !== undefined && wallNow() - started >= options.waitMs) {
      throw new PieError('CONFLICT', `Another ${running}; run again when it has finished.`, {
        details: { holder: outcome.lease.holder, running },
      });
    }
    if (options.signal?.aborted) {
      throw new PieError('CONFLICT', `Stopped while waiting: another ${running}.`);
    }
    if (!announced) {
      options.onWaiting?.(
        `Another ${running}; waiting for it to finish, then ${options.thenNote ?? 'this run extracts whatever is still waiting'} (Ctrl-C stops waiting).`,
      );
      announced = true;
      onBusy();
    }
    await pause(LEASE_POLL_MS, options.signal);
  }
}

/** Whether a process with this id exists (EPERM: it exists but belongs to someone else). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Resolves after `ms`, or at once when `signal` fires. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
