import { PieError } from '../../../domain/errors.js';
import { nearestByCosine } from '../../../domain/vectors.js';
import type { EmbeddingOwner, EmbeddingRepo, NearestQuery, StoredEmbedding } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { limitParam, type Statements } from './sql.js';

interface EmbeddingRow {
  owner_kind: EmbeddingOwner;
  owner_id: string;
  model: string;
  dims: number;
  vector: Buffer;
}

/** The table holding each kind of owner; `missing` looks for owners there. */
export const OWNER_TABLES: Record<EmbeddingOwner, string> = {
  entity: 'entities',
  episode: 'episodes',
  transition: 'transitions',
};

export const FLOAT_BYTES = Float32Array.BYTES_PER_ELEMENT;

export function ownerTable(kind: EmbeddingOwner): string {
  const table = OWNER_TABLES[kind] as string | undefined;
  if (table === undefined) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `Unknown embedding owner "${String(kind)}"; use one of ${Object.keys(OWNER_TABLES).join(', ')}.`,
    );
  }
  return table;
}

/** The vector's bytes as stored: IEEE-754 float32 in the machine's byte order (little-endian in practice). */
function toBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/**
 * A new Float32Array with a copy of the blob's bytes. The driver's Buffer may start at any byte offset of a shared
 * pool, where a Float32Array view would be misaligned, so the bytes are copied instead of viewed.
 */
function fromBlob(row: EmbeddingRow): Float32Array {
  if (row.vector.byteLength !== row.dims * FLOAT_BYTES) {
    throw new PieError(
      'DB_CORRUPT',
      `The ${row.model} vector of ${row.owner_kind} "${row.owner_id}" has ${row.vector.byteLength} bytes, expected ${row.dims} floats.`,
    );
  }
  const vector = new Float32Array(row.dims);
  new Uint8Array(vector.buffer).set(row.vector);
  return vector;
}

export function checkVector(input: StoredEmbedding): void {
  if (!(input.vector instanceof Float32Array) || input.vector.length === 0) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `The embedding of ${input.ownerKind} "${input.ownerId}" must be a non-empty Float32Array.`,
    );
  }
  if (input.model.trim() === '') {
    throw new PieError(
      'INVALID_ARGUMENT',
      `The embedding of ${input.ownerKind} "${input.ownerId}" has no model label.`,
    );
  }
}

/** Checks a `nearest` query (kind, vector, limit); returns its number of dimensions. */
export function checkNearest(query: NearestQuery): number {
  ownerTable(query.ownerKind);
  limitParam(query.limit);
  const dims = (query.vector as ArrayLike<number> | undefined)?.length;
  if (typeof dims !== 'number' || !Number.isInteger(dims) || dims <= 0) {
    throw new PieError('INVALID_ARGUMENT', 'A nearest-neighbour query needs a non-empty vector.');
  }
  return dims;
}

export function createEmbeddingRepo(s: Statements): SyncOf<EmbeddingRepo> {
  return {
    put(input) {
      ownerTable(input.ownerKind);
      checkVector(input);
      s.get(
        `INSERT INTO embeddings (owner_kind, owner_id, model, dims, vector, created_at)
         VALUES (@ownerKind, @ownerId, @model, @dims, @vector, @createdAt)
         ON CONFLICT (owner_kind, owner_id, model) DO UPDATE SET
           dims = excluded.dims, vector = excluded.vector, created_at = excluded.created_at`,
      ).run({
        ownerKind: input.ownerKind,
        ownerId: input.ownerId,
        model: input.model,
        dims: input.vector.length,
        vector: toBlob(input.vector),
        createdAt: input.createdAt,
      });
    },

    all({ ownerKind, model }) {
      ownerTable(ownerKind);
      const rows = s
        .get(
          `SELECT owner_kind, owner_id, model, dims, vector FROM embeddings
           WHERE owner_kind = ? AND model = ? ORDER BY owner_id`,
        )
        .all(ownerKind, model) as EmbeddingRow[];
      return rows.map((row) => ({
        ownerKind: row.owner_kind,
        ownerId: row.owner_id,
        model: row.model,
        vector: fromBlob(row),
      }));
    },

    nearest(query) {
      const dims = checkNearest(query);
      const rows = s
        .get(
          `SELECT owner_kind, owner_id, model, dims, vector FROM embeddings
           WHERE owner_kind = ? AND model = ? AND dims = ?`,
        )
        .all(query.ownerKind, query.model, dims) as EmbeddingRow[];
      const candidates = rows.map((row) => ({ ownerId: row.owner_id, vector: fromBlob(row) }));
      return nearestByCosine({ query: query.vector, candidates, limit: query.limit });
    },

    missing({ ownerKind, model, limit }) {
      const table = ownerTable(ownerKind);
      return s
        .pluck(
          `SELECT o.id FROM ${table} o
           WHERE NOT EXISTS (SELECT 1 FROM embeddings m
                             WHERE m.owner_kind = @ownerKind AND m.owner_id = o.id AND m.model = @model)
           ORDER BY o.id LIMIT @limit`,
        )
        .all({ ownerKind, model, limit: limitParam(limit) ?? -1 }) as string[];
    },

    count({ ownerKind, model }) {
      ownerTable(ownerKind);
      return Number(
        s.pluck('SELECT count(*) FROM embeddings WHERE owner_kind = ? AND model = ?').get(ownerKind, model),
      );
    },

    deleteOtherModels(model) {
      return s.get('DELETE FROM embeddings WHERE model <> ?').run(model).changes;
    },
  };
}
