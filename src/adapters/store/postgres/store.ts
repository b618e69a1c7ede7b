import { PieError, errorMessage } from '../../../domain/errors.js';
import type { WorldStore } from '../../../ports/world-store.js';
import { Level, transactionEnded, type PgConnection } from './connection.js';
import { createPgRepos } from './repos.js';
import { levelSql } from './runner.js';
import type { Session } from './sql.js';

/**
 * The PostgreSQL store, with the same concurrency model as the SQLite one (see ../sqlite/store.ts): a transaction
 * holds its parent level's mutex until it ends, so transactions on one store object run one after the other; a
 * transaction runs on one dedicated client (BEGIN … COMMIT), a nested one is a SAVEPOINT on that client. Other
 * statements of the root store use the pool (any free client) and wait while a transaction of this store is open.
 */
export function createPgStore(conn: PgConnection, level: Level): WorldStore {
  const repos = createPgRepos(levelSql(conn, level), {
    now: conn.now,
    vectors: conn.vectors.mode,
    hnsw: conn.hnsw,
    searchStats: conn.searchStats,
    inTransaction: () => conn.effective(level).depth > 0,
  });
  return {
    ...repos,
    transaction: (fn) => runTransaction(conn, level, fn),
    info: () => ({
      adapter: 'postgres',
      location: conn.location,
      schemaVersion: conn.schemaVersion,
      vectors: conn.vectors.mode === 'pgvector' ? 'pgvector' : 'exact scan',
      vectorSearch: conn.vectors.search,
    }),
    close: async () => {
      if (level.depth > 0) {
        throw new PieError('INTERNAL', 'A transaction handle cannot close the database; close the store itself.');
      }
      await closeConnection(conn);
    },
  };
}

interface Bounds {
  begin: string;
  commit: string;
  rollback: string[];
}

/**
 * A transaction, then (when it was an outermost one that committed) the HNSW indexes its vectors asked for: they
 * are built outside it, once its locks are gone (see hnsw.ts). The vectors are committed even when that fails.
 */
async function runTransaction<T>(conn: PgConnection, level: Level, fn: (tx: WorldStore) => Promise<T>): Promise<T> {
  const outermost = conn.effective(level).depth === 0;
  const value = await transactionOn(conn, level, fn);
  if (outermost && conn.hnsw?.hasWanted()) await conn.hnsw.buildWanted(levelSql(conn, conn.root));
  return value;
}

async function transactionOn<T>(conn: PgConnection, level: Level, fn: (tx: WorldStore) => Promise<T>): Promise<T> {
  conn.assertOpen();
  if (!level.active) throw transactionEnded();
  const parent = conn.effective(level);
  const release = await parent.mutex.acquire();
  try {
    conn.assertOpen();
    if (!parent.active) throw transactionEnded();
    if (parent.depth > 0) return await runInside(conn, parent.session, parent.depth + 1, fn);
    const leased = await conn.driver.connect();
    let broken = true;
    try {
      const value = await runInside(conn, conn.translated(leased), 1, fn);
      broken = false;
      return value;
    } catch (error) {
      broken = !(error instanceof RolledBack);
      throw error instanceof RolledBack ? error.original : error;
    } finally {
      leased.release(broken);
    }
  } finally {
    release();
  }
}

/** The callback failed and the transaction was rolled back cleanly (its client can be reused). */
class RolledBack {
  constructor(readonly original: unknown) {}
}

async function runInside<T>(
  conn: PgConnection,
  session: Session,
  depth: number,
  fn: (tx: WorldStore) => Promise<T>,
): Promise<T> {
  const child = new Level(depth, session);
  const savepoint = `pie_tx_${depth}`;
  const sql: Bounds =
    depth === 1
      ? { begin: 'BEGIN', commit: 'COMMIT', rollback: ['ROLLBACK'] }
      : {
          begin: `SAVEPOINT ${savepoint}`,
          commit: `RELEASE SAVEPOINT ${savepoint}`,
          rollback: [`ROLLBACK TO SAVEPOINT ${savepoint}`, `RELEASE SAVEPOINT ${savepoint}`],
        };
  await session.query(sql.begin, []);
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await conn.ambient.run(child, () => fn(createPgStore(conn, child))) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  // An inner transaction that `fn` started but did not await finishes before this one ends.
  const drained = await child.mutex.acquire();
  child.active = false;
  drained();
  if (!outcome.ok) {
    await rollback(conn, session, sql.rollback, outcome.error);
    throw depth === 1 ? new RolledBack(outcome.error) : outcome.error;
  }
  try {
    await session.query(sql.commit, []);
  } catch (error) {
    await rollback(conn, session, sql.rollback, error);
    throw depth === 1 ? new RolledBack(error) : error;
  }
  return outcome.value;
}

async function rollback(conn: PgConnection, session: Session, statements: string[], original: unknown): Promise<void> {
  try {
    for (const statement of statements) await session.query(statement, []);
  } catch (rollbackError) {
    throw new PieError(
      'DB_ERROR',
      `A transaction on ${conn.location} failed (${errorMessage(original)}) and rolling it back failed too (${errorMessage(rollbackError)}).`,
      { cause: original, details: { rollbackError: errorMessage(rollbackError) } },
    );
  }
}

/** Waits for a running transaction of this store, then ends the pool (or the owned PGlite). Idempotent. */
async function closeConnection(conn: PgConnection): Promise<void> {
  if (conn.closed) return;
  if (conn.current()) {
    throw new PieError(
      'INTERNAL',
      `The database ${conn.location} cannot be closed from inside one of its transactions.`,
    );
  }
  const release = await conn.root.mutex.acquire();
  try {
    if (conn.closed) return;
    conn.closed = true;
    conn.root.active = false;
    await conn.driver.end();
  } finally {
    release();
  }
}
