import type { DumpStore } from '../../../ports/dump-store.js';
import type { ForgetStore } from '../../../ports/forget-store.js';
import type { LeaseRepo } from '../../../ports/lease-store.js';
import type { PersonalBenchRepo } from '../../../ports/personal-bench-store.js';
import type { InsightRepo } from '../../../ports/insight-store.js';
import type { MaintenanceStore } from '../../../ports/maintenance-store.js';
import type { PyramidStore } from '../../../ports/pyramid-store.js';
import type { SleepTaskRepo } from '../../../ports/sleep-task-store.js';
import { PieError, errorMessage } from '../../../domain/errors.js';
import type {
  EmbeddingRepo,
  EntityRepo,
  EpisodeRepo,
  FactRepo,
  IngestRunRepo,
  JournalRepo,
  LlmCacheRepo,
  MaintenanceLogRepo,
  MentionRepo,
  PeriodRepo,
  ProcedureRepo,
  RelationshipRepo,
  SearchRepo,
  TransitionRepo,
  WorldStore,
} from '../../../ports/world-store.js';
import { bindRepo, type Runner } from './bind.js';
import { Scope, transactionEnded, type Connection } from './connection.js';

/**
 * Concurrency model. better-sqlite3 is synchronous, so a single operation can never interleave with another one;
 * what needs care is a transaction that stays open across `await`s while its callback runs.
 *
 * - Each nesting level (the connection, a transaction, a savepoint) has an async mutex. Opening a transaction
 *   holds its parent level's mutex until it ends, so transactions on one store run one after the other.
 * - A call made from inside a running transaction (found through AsyncLocalStorage) acts on the innermost
 *   transaction of its async context, whichever store object it goes through; other calls act on their store's
 *   level. An operation runs at once when its level has no open inner transaction, otherwise it waits for that
 *   transaction to end. So a caller of the root store never writes into someone else's transaction, and a
 *   transaction's callback (using `tx`, or even the root store by mistake) never deadlocks on its own transaction.
 * - `tx.transaction()` (or any `transaction()` called from inside a running transaction) opens a SAVEPOINT: its
 *   failure rolls back only its own writes, and the outer transaction goes on if the caller catches the error.
 */
export function createStore(conn: Connection, scope: Scope): WorldStore {
  const run: Runner = (op) => runAt(conn, scope, op);
  const r = conn.repos;
  return {
    episodes: bindRepo<EpisodeRepo>(r.episodes, run),
    entities: bindRepo<EntityRepo>(r.entities, run),
    transitions: bindRepo<TransitionRepo>(r.transitions, run),
    facts: bindRepo<FactRepo>(r.facts, run),
    relationships: bindRepo<RelationshipRepo>(r.relationships, run),
    mentions: bindRepo<MentionRepo>(r.mentions, run),
    periods: bindRepo<PeriodRepo>(r.periods, run),
    procedures: bindRepo<ProcedureRepo>(r.procedures, run),
    runs: bindRepo<IngestRunRepo>(r.runs, run),
    llmCache: bindRepo<LlmCacheRepo>(r.llmCache, run),
    journal: bindRepo<JournalRepo>(r.journal, run),
    maintenance: bindRepo<MaintenanceLogRepo>(r.maintenance, run),
    search: bindRepo<SearchRepo>(r.search, run),
    embeddings: bindRepo<EmbeddingRepo>(r.embeddings, run),
    upkeep: bindRepo<MaintenanceStore>(r.upkeep, run),
    dump: bindRepo<DumpStore>(r.dump, run),
    pyramid: bindRepo<PyramidStore>(r.pyramid, run),
    tasks: bindRepo<SleepTaskRepo>(r.tasks, run),
    insights: bindRepo<InsightRepo>(r.insights, run),
    leases: bindRepo<LeaseRepo>(r.leases, run),
    forget: bindRepo<ForgetStore>(r.forget, run),
    personalBench: bindRepo<PersonalBenchRepo>(r.personalBench, run),
    transaction: (fn) => runTransaction(conn, scope, fn),
    stats: () => run(r.stats),
    revision: () => run(r.revision),
    info: () => ({ adapter: 'sqlite', location: conn.path, schemaVersion: conn.schemaVersion }),
    close: async () => {
      if (scope.depth > 0) {
        throw new PieError('INTERNAL', 'A transaction handle cannot close the database; close the store itself.');
      }
      await closeConnection(conn);
    },
  };
}

/** A call made from inside a deeper open transaction acts on that transaction (it is part of it). */
function effectiveLevel(conn: Connection, scope: Scope): Scope {
  const inner = conn.current();
  return inner !== undefined && inner.depth > scope.depth ? inner : scope;
}

async function runAt<R>(conn: Connection, scope: Scope, op: () => R): Promise<R> {
  conn.assertOpen();
  if (!scope.active) throw transactionEnded();
  const level = effectiveLevel(conn, scope);
  if (level.mutex.idle) return conn.exec(op);
  const release = await level.mutex.acquire();
  try {
    conn.assertOpen();
    if (!level.active) throw transactionEnded();
    return conn.exec(op);
  } finally {
    release();
  }
}

async function runTransaction<T>(conn: Connection, scope: Scope, fn: (tx: WorldStore) => Promise<T>): Promise<T> {
  conn.assertOpen();
  if (!scope.active) throw transactionEnded();
  const parent = effectiveLevel(conn, scope);
  const release = await parent.mutex.acquire();
  try {
    conn.assertOpen();
    if (!parent.active) throw transactionEnded();
    return await runInside(conn, parent, fn);
  } finally {
    release();
  }
}

async function runInside<T>(conn: Connection, parent: Scope, fn: (tx: WorldStore) => Promise<T>): Promise<T> {
  const child = new Scope(parent.depth + 1);
  // Open levels form one chain, so the depth names a savepoint uniquely.
  const savepoint = `pie_tx_${child.depth}`;
  const sql =
    parent.depth === 0
      ? { begin: conn.db.readonly ? 'BEGIN' : 'BEGIN IMMEDIATE', commit: 'COMMIT', rollback: 'ROLLBACK' }
      : {
          begin: `SAVEPOINT ${savepoint}`,
          commit: `RELEASE ${savepoint}`,
          rollback: `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`,
        };
  conn.exec(() => conn.db.exec(sql.begin));
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await conn.ambient.run(child, () => fn(createStore(conn, child))) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  // An inner transaction that `fn` started but did not await finishes before this one ends; later calls on the
  // handle fail instead of writing outside any transaction.
  const drained = await child.mutex.acquire();
  child.active = false;
  drained();
  if (!outcome.ok) {
    rollback(conn, sql.rollback, outcome.error);
    throw outcome.error;
  }
  try {
    conn.exec(() => conn.db.exec(sql.commit));
  } catch (error) {
    rollback(conn, sql.rollback, error);
    throw error;
  }
  return outcome.value;
}

/** Rolls back after `original` failed; if even that fails, says so while keeping the original as the cause. */
function rollback(conn: Connection, sql: string, original: unknown): void {
  if (!conn.db.open || !conn.db.inTransaction) return; // SQLite already rolled back (e.g. after SQLITE_FULL)
  try {
    conn.db.exec(sql);
  } catch (rollbackError) {
    throw new PieError(
      'DB_ERROR',
      `A transaction on ${conn.path} failed (${errorMessage(original)}) and rolling it back failed too (${errorMessage(rollbackError)}).`,
      { cause: original, details: { rollbackError: errorMessage(rollbackError) } },
    );
  }
}

/** Waits for running transactions, checkpoints the WAL (without waiting for other readers) and closes. Idempotent. */
async function closeConnection(conn: Connection): Promise<void> {
  if (conn.closed) return;
  if (conn.current()) {
    throw new PieError('INTERNAL', `The database ${conn.path} cannot be closed from inside one of its transactions.`);
  }
  const release = await conn.root.mutex.acquire();
  try {
    if (conn.closed) return;
    conn.closed = true;
    conn.root.active = false;
    conn.exec(() => {
      try {
        if (!conn.db.readonly) {
          conn.db.pragma('optimize'); // refreshes planner statistics where SQLite thinks they are stale; cheap
          conn.db.pragma('wal_checkpoint(PASSIVE)');
        }
      } finally {
        conn.db.close();
      }
    });
  } finally {
    release();
  }
}
