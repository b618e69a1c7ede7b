import type { Pool, PoolClient } from 'pg';
import { Mutex } from '../sqlite/mutex.js';
import type { QueryResult, Session } from './sql.js';

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

/**
 * PGlite has one connection: a transaction holds it, and one-shot queries wait for the transaction to end (they
 * would otherwise run inside it).
 */
export function pgliteDriver(db: PgliteLike, options: { owned: boolean }): Driver {
  const lock = new Mutex();
  const direct: Session = {
    query: async (text, values) => {
      const result = await db.query(text, values as unknown[]);
      return { rows: result.rows as Record<string, unknown>[], count: result.affectedRows ?? result.rows.length };
    },
    exec: async (text) => {
      await db.exec(text);
    },
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
