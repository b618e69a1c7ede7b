import { isPieError } from '../../../domain/errors.js';
import type { EmbeddingOwner } from '../../../ports/world-store.js';
import { type Sql } from './sql.js';

/** One HNSW index covers the vectors of one owner kind and one size (pgvector's HNSW needs a fixed size). */
export interface HnswKey {
  kind: EmbeddingOwner;
  dims: number;
}

/** pgvector's HNSW indexes `vector` values of up to 2,000 dimensions; larger ones are searched without index. */
export const HNSW_MAX_DIMS = 2000;
/** SQLSTATE of "must be owner of table". */
const INSUFFICIENT_PRIVILEGE = '42501';
/** pgvector's largest hnsw.ef_search. */
const MAX_EF_SEARCH = 1000;
/** At least this many candidates per search (pgvector's default is 40). */
const MIN_EF_SEARCH = 100;

/** The literal of each owner kind, for SQL text (the partial index predicates must be literals). */
const KIND_LITERAL: Record<EmbeddingOwner, string> = {
  entity: `'entity'`,
  episode: `'episode'`,
  transition: `'transition'`,
};

/** A vector size as SQL text: a positive integer, never anything else. */
function dimsLiteral(dims: number): string {
  if (!Number.isInteger(dims) || dims <= 0) throw new RangeError(`not a vector size: ${String(dims)}`);
  return String(dims);
}

export function hnswIndexName(key: HnswKey): string {
  return `embeddings_hnsw_${key.kind}_${dimsLiteral(key.dims)}`;
}

/**
 * The partial expression index for one kind and size. The `embedding` column has no fixed size, so the index is
 * on the column cast to `vector(dims)`, only over rows of that size and kind; a query gets it by repeating the
 * cast and the predicate literally (see `nearestSql`). Rows without a pgvector copy (NaN, infinities) and vectors of
 * norm zero are not indexed.
 */
export function hnswIndexSql(key: HnswKey): string {
  const dims = dimsLiteral(key.dims);
  return (
    `CREATE INDEX IF NOT EXISTS ${hnswIndexName(key)} ON embeddings ` +
    `USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) ` +
    `WHERE dims = ${dims} AND owner_kind = ${KIND_LITERAL[key.kind]}`
  );
}

/**
 * The candidates for a nearest-neighbour query, nearest first by pgvector's cosine distance (ties by owner id),
 * with @model, @query (pgvector's text form) and @limit. With the index of that kind and size it is an HNSW
 * index scan; without it (not built yet, or more than HNSW_MAX_DIMS dimensions) an exact scan on the server.
 */
export function nearestSql(key: HnswKey): string {
  const dims = dimsLiteral(key.dims);
  return `SELECT owner_kind, owner_id, model, dims, vector FROM embeddings
    WHERE dims = ${dims} AND owner_kind = ${KIND_LITERAL[key.kind]} AND model = @model
    ORDER BY embedding::vector(${dims}) <=> @query::vector(${dims}), owner_id
    LIMIT @limit`;
}

/**
 * Settings for one search, local to its transaction. ef_search is how many candidates the HNSW scan keeps: it
 * must exceed `limit` for `limit` rows to come back, and more candidates find the true neighbours more often.
 * pgvector 0.8 and later can go on scanning when the model filter drops candidates (iterative scan, in order).
 */
export function searchSettingsSql(limit: number, iterativeScan: boolean): string {
  const ef = Math.min(MAX_EF_SEARCH, Math.max(MIN_EF_SEARCH, 2 * limit));
  const iterative = iterativeScan ? `, set_config('hnsw.iterative_scan', 'strict_order', true)` : '';
  return `SELECT set_config('hnsw.ef_search', '${ef}', true)${iterative}`;
}

function keyText(key: HnswKey): string {
  return `${key.kind}:${key.dims}`;
}

/**
 * The HNSW indexes of one connection with pgvector: which are known to exist, and which writes asked for.
 *
 * Indexes are built outside the caller's transactions: CREATE INDEX locks the table against writers until its
 * transaction ends, and inside a caller's transaction that lock would be held for the whole transaction, or wait
 * for another writer holding its own lock (a deadlock). So a vector written inside a transaction only asks for
 * its index (`want`), and the store builds it when the outermost transaction has committed (`buildWanted`); a
 * write or search outside a transaction builds it at once (`ensure`).
 */
export class HnswIndexes {
  private readonly ready = new Set<string>();
  private readonly wanted = new Map<string, HnswKey>();

  constructor(
    /** pgvector 0.8 or later (hnsw.iterative_scan). */
    readonly iterativeScan: boolean,
  ) {}

  want(key: HnswKey): void {
    const text = keyText(key);
    if (!this.ready.has(text)) this.wanted.set(text, key);
  }

  hasWanted(): boolean {
    return this.wanted.size > 0;
  }

  isReady(key: HnswKey): boolean {
    return this.ready.has(keyText(key));
  }

  /** Builds every index that writes asked for. `sql` must be the root store's (not inside a transaction). */
  async buildWanted(sql: Sql): Promise<void> {
    for (const key of [...this.wanted.values()]) await this.ensure(sql, key);
  }

  /**
   * Creates the index of that kind and size when it does not exist, in a transaction of its own under an advisory
   * lock (two processes creating the same index would otherwise collide). `sql` must be the root store's. The key
   * counts as done before the attempt, so a failure is reported once rather than after every later write; searches
   * work without the index (the server sorts the rows of that kind and size instead). A role that does not own the
   * table may not create indexes on it: then there is no index, and no error.
   */
  async ensure(sql: Sql, key: HnswKey): Promise<void> {
    const text = keyText(key);
    if (this.ready.has(text)) return;
    this.ready.add(text);
    this.wanted.delete(text);
    if (key.dims > HNSW_MAX_DIMS) return;
    const name = hnswIndexName(key);
    try {
      await sql.atomic(async (tx) => {
        await tx.one(`SELECT pg_advisory_xact_lock(hashtext('pie-hnsw:' || current_schema() || ':' || @name))`, {
          name,
        });
        const exists = await tx.one(
          `SELECT 1 AS found FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = current_schema() AND c.relname = @name`,
          { name },
        );
        if (!exists) await tx.run(hnswIndexSql(key));
      });
    } catch (error) {
      if (!isPieError(error) || error.details?.sqlState !== INSUFFICIENT_PRIVILEGE) throw error;
    }
  }
}
