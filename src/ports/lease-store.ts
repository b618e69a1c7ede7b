/**
 * Work leases: a claim on a piece of work (today: "extraction", the one writer of extracted knowledge) shared by
 * every process that opens the same database. A lease names its holder, expires unless renewed, and is taken over
 * when expired or when its holder is known to be dead, so a claim survives `kill -9` only until then.
 */
export interface LeaseHolder {
  /** Unique per claim (a fresh id for every run). */
  id: string;
  /** Process id and host name, for the message a waiting run prints and to see a dead holder. */
  pid: number;
  host: string;
  /** What holds it: "pie ingest", "mcp ingest_episode" … */
  purpose: string;
}

export interface Lease {
  name: string;
  holder: LeaseHolder;
  /** Wall-clock milliseconds (never the configured "now": a lease is about real time passing). */
  acquiredAt: number;
  expiresAt: number;
}

export interface LeaseRepo {
  /**
   * Atomically: when the lease is free, expired, or held by a holder `isDead` confirms dead, `holder` takes it
   * until `now + ttlMs` and `{ taken: true }` is returned; otherwise nothing changes and the current lease comes back.
   */
  acquire(input: {
    name: string;
    holder: LeaseHolder;
    now: number;
    ttlMs: number;
    isDead: (holder: LeaseHolder) => boolean;
  }): Promise<{ taken: true; lease: Lease } | { taken: false; lease: Lease }>;
  /** Extends the holder's lease; false when it no longer holds it (it expired and someone else took it). */
  renew(input: { name: string; holderId: string; now: number; ttlMs: number }): Promise<boolean>;
  /** Gives the lease up; releasing a lease one does not hold changes nothing. */
  release(input: { name: string; holderId: string }): Promise<void>;
  get(name: string): Promise<Lease | null>;
  /**
   * Called on a transaction's store: a lock named `name` held until that transaction ends and dropped by the
   * database when the process dies; false (nothing waits) when another transaction holds it. A second line behind
   * the lease for work done in one long transaction (a sleep), whose lease cannot be renewed while it runs.
   * PostgreSQL: a transaction-scoped advisory lock. SQLite: always true (a write transaction already holds the
   * database's one write lock, BEGIN IMMEDIATE).
   */
  lockForTransaction(name: string): Promise<boolean>;
}
