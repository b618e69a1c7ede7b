import type { Pool, PoolClient } from 'pg';
import { Mutex } from '../sqlite/mutex.js';
import { quoteIdent, type QueryResult, type Session } from './sql.js';

/** A session taken for a transaction; `release` gives it back (a broken one is discarded). */
export interface LeasedSession extends Session {
  release(broken?: boolean): void;
}

/**
 * What the adapter needs from a database: one-shot queries, a dedicated session for a transaction, and closing.
 * Implemented over a node-postgres pool (a real server) and over PGlite (one in-process connection).
 */
export interface Driver {
  readonly root: Session;
  connect(): Promise<LeasedSession>;
  end(): Promise<void>;
}

/** The subset of PGlite this adapter uses (kept structural so PGlite stays a dev dependency). */
export interface PgliteLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; affectedRows?: number }>;
  exec(text: string): Promise<unknown>;
  close(): Promise<void>;
}

function pgResult(result: { rows: unknown[]; rowCount: number | null }): QueryResult {
  return { rows: result.rows as Record<string, unknown>[], count: result.rowCount ?? result.rows.length };
}

function clientSession(client: Pool | PoolClient): Session {
  return {
    query: async (text, values) => pgResult(await client.query(text, values as unknown[])),
    exec: async (text) => {
      await client.query(text);
    },
  };
}

export function poolDriver(pool: Pool): Driver {
  return {
    root: clientSession(pool),
    async connect() {
      const client = await pool.connect();
      return { ...clientSession(client), release: (broken) => client.release(broken === true) };
    },
    end: () => pool.end(),
  };
}

/** Which schema each PGlite instance's one connection is set to (null: unknown, set it before the next query). */
const pgliteSchema = new WeakMap<PgliteLike, string | null>();

/** Statements that undo a SET made since the transaction or savepoint began. */
const UNDOES_SET = /^\s*ROLLBACK\b/i;

/**
 * PGlite has one connection: a transaction holds it, and one-shot queries of the same store wait for the
 * transaction to end (they would otherwise run inside it).
 *
 * Several stores may share one PGlite instance, a schema each (one memory each). Before a statement, a store whose
 * schema is not the connection's sets search_path to its own; the SET and the statement are queued together (PGlite
 * runs calls in order), so no other store's statement comes between them. A ROLLBACK may undo such a SET, so the
 * schema is unknown after one. Stores on one instance still share its connection: a statement of one store issued
 * while another store's transaction is open runs inside that transaction (fine for reading, as a restore does;
 * use a server, or one PGlite instance per store, for independent writers).
 */
export function pgliteDriver(db: PgliteLike, options: { owned: boolean; schema: string }): Driver {
  const lock = new Mutex();
  const setPath = `SET search_path = ${quoteIdent(options.schema)}, public`;
  /** Queues the SET (when needed) and then the statement, with no await between them. */
  const inSchema = async <R>(run: () => Promise<R>, text: string): Promise<R> => {
    const switching = pgliteSchema.get(db) !== options.schema;
    const set = switching ? db.exec(setPath) : undefined;
    pgliteSchema.set(db, UNDOES_SET.test(text) ? null : options.schema);
    const result = run();
    if (set) {
      try {
        await set;
      } catch (error) {
        pgliteSchema.set(db, null);
        await result.catch(() => undefined);
        throw error;
      }
    }
    return result;
  };
  const direct: Session = {
    query: (text, values) =>
      inSchema(async () => {
        const result = await db.query(text, values as unknown[]);
        return { rows: result.rows as Record<string, unknown>[], count: result.affectedRows ?? result.rows.length };
      }, text),
    exec: (text) =>
      inSchema(async () => {
        await db.exec(text);
      }, text),
  };
  const locked = async <R>(op: () => Promise<R>): Promise<R> => {
    const release = await lock.acquire();
    try {
      return await op();
    } finally {
      release();
    }
  };
  return {
    root: {
      query: (text, values) => locked(() => direct.query(text, values)),
      exec: (text) => locked(() => direct.exec(text)),
    },
    async connect() {
      const release = await lock.acquire();
      return { ...direct, release: () => release() };
    },
    end: async () => {
      if (options.owned) await db.close();
    },
  };
}
