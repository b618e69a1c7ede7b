import type { Lease, LeaseHolder } from '../ports/lease-store.js';

/** The extraction lease's name: one extraction writes to a database at a time. */
export const EXTRACTION_LEASE = 'extraction';
/** The sleep lease's name: one real (non-dry) sleep runs on a database at a time. */
export const SLEEP_LEASE = 'sleep';
/** How a sleep names itself as a holder ("sleep via pie sleep --scope full"), so others can say a sleep holds it. */
export const SLEEP_PURPOSE_PREFIX = 'sleep via ';
/** A holder that stops renewing (killed, frozen, machine asleep) loses the lease after this long. */
export const LEASE_TTL_MS = 60_000;
/**
 * A sleep's leases live this long without renewal: a sleep writes in one store transaction, during which its renewals
 * wait (a full sleep of a large memory takes minutes), so the usual minute would let an extraction in while it
 * writes. A sleep killed on this host is still seen dead at once (its process is gone).
 */
export const SLEEP_LEASE_TTL_MS = 30 * 60_000;
/** Holders renew this often, well inside the time to live. */
export const LEASE_RENEW_MS = 10_000;
/** A waiting run looks again this often. */
export const LEASE_POLL_MS = 500;
/**
 * The applying run looks this often for a batch another process is extracting for it, and a helper with nothing to
 * claim looks again this often: each look is one small query, and every wait here delays the whole extraction.
 */
export const BATCH_POLL_MS = 100;

/**
 * Whether a lease's holder is known to be gone: only a process on this host can be checked, and it is gone when
 * its pid no longer exists. A holder on another host (a shared folder) is trusted until its lease expires.
 */
export function holderIsDead(holder: LeaseHolder, self: { host: string; pidAlive: (pid: number) => boolean }): boolean {
  return holder.host === self.host && !self.pidAlive(holder.pid);
}

/**
 * What a run that finds the work taken says, after "Another" or "another": "extraction is running on this database:
 * pie ingest x.json (process 42 on box, running for 9 s)", or "sleep is running …" when a sleep holds the lease (a
 * sleep holds the extraction lease too while it writes).
 */
export function runningClause(lease: Lease, now: number): string {
  const what =
    lease.name === SLEEP_LEASE || lease.holder.purpose.startsWith(SLEEP_PURPOSE_PREFIX) ? 'sleep' : 'extraction';
  return `${what} is running on this database: ${describeHolder(lease, now)}`;
}

/** Who holds the work and since when. */
export function describeHolder(lease: Lease, now: number): string {
  const since = Math.max(0, Math.round((now - lease.acquiredAt) / 1000));
  return `${lease.holder.purpose} (process ${lease.holder.pid} on ${lease.holder.host}, running for ${formatSeconds(since)})`;
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
