import { AsyncLocalStorage } from 'node:async_hooks';
import { PieError } from '../../../domain/errors.js';
import { Mutex } from '../sqlite/mutex.js';
import type { Driver } from './driver.js';
import { translatePgError } from './errors.js';
import { HnswIndexes } from './hnsw.js';
import { createSearchStats, type SearchStats } from './search-stats.js';
import type { VectorSupport } from './pgvector.js';
import type { Session } from './sql.js';

/** How the store keeps vectors: pgvector's type beside the raw bytes, or the raw bytes only (exact scan in JS). */
export type VectorMode = 'pgvector' | 'exact';

/**
 * A level of transaction nesting: depth 0 is the pool (the root store), depth 1 a transaction on its own client,
 * deeper levels savepoints on that client. Each level admits one inner transaction at a time through its mutex.
 */
export class Level {
  active = true;
  readonly mutex = new Mutex();

  constructor(
    readonly depth: number,
    readonly session: Session,
  ) {}
}

export class PgConnection {
  readonly root: Level;
  /** The innermost transaction of the calling async context (set while a transaction's callback runs). */
  readonly ambient = new AsyncLocalStorage<Level>();
  /** The HNSW indexes of this memory (with pgvector only). */
  readonly hnsw: HnswIndexes | null;
  /** The planner statistics the search budget reads, shared by the store and its transactions. */
  readonly searchStats: SearchStats = createSearchStats();
  closed = false;

  constructor(
    readonly driver: Driver,
    /** The server and database without credentials, for messages. */
    readonly location: string,
    readonly schemaVersion: number,
    readonly vectors: VectorSupport,
    readonly now: () => number,
  ) {
    this.root = new Level(0, this.translated(driver.root));
    this.hnsw = vectors.mode === 'pgvector' ? new HnswIndexes(vectors.iterativeScan) : null;
  }

  /** The session with every driver error turned into a PieError. */
  translated(session: Session): Session {
    const location = this.location;
    return {
      query: async (text, values) => {
        try {
          return await session.query(text, values);
        } catch (error) {
          throw translatePgError(error, location);
        }
      },
      exec: async (text) => {
        try {
          await session.exec(text);
        } catch (error) {
          throw translatePgError(error, location);
        }
      },
    };
  }

  assertOpen(): void {
    if (this.closed) throw new PieError('DB_ERROR', `The database ${this.location} is already closed.`);
  }

  current(): Level | undefined {
    const level = this.ambient.getStore();
    return level?.active ? level : undefined;
  }

  /** A call made from inside a deeper open transaction acts on that transaction (it is part of it). */
  effective(level: Level): Level {
    const inner = this.current();
    return inner !== undefined && inner.depth > level.depth ? inner : level;
  }
}

export function transactionEnded(): PieError {
  return new PieError(
    'INTERNAL',
    'This transaction has already finished; use the store passed to the transaction that is running, or the store itself.',
  );
}
