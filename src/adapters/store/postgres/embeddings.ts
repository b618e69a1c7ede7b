import { PieError } from '../../../domain/errors.js';
import { nearestByCosine } from '../../../domain/vectors.js';
import type { EmbeddingOwner, EmbeddingRepo, NearestHit, NearestQuery } from '../../../ports/world-store.js';
import { nearestSql, searchSettingsSql, type HnswIndexes } from './hnsw.js';
import { limitParam, type Sql } from './sql.js';
import { checkNearest, checkVector, FLOAT_BYTES, ownerTable } from '../sqlite/embeddings.js';

interface EmbeddingRow {
  owner_kind: EmbeddingOwner;
  owner_id: string;
  model: string;
  dims: number;
  vector: Uint8Array;
}

/** float32 little-endian bytes, the same layout as the SQLite store's blobs (backups carry them unchanged). */
function toBytes(vector: Float32Array): Uint8Array {
  const out = new Uint8Array(vector.length * FLOAT_BYTES);
  const view = new DataView(out.buffer);
  vector.forEach((value, i) => view.setFloat32(i * FLOAT_BYTES, value, true));
  return out;
}

function fromBytes(row: EmbeddingRow): Float32Array {
  if (row.vector.byteLength !== row.dims * FLOAT_BYTES) {
    throw new PieError(
      'DB_CORRUPT',
      `The ${row.model} vector of ${row.owner_kind} "${row.owner_id}" has ${row.vector.byteLength} bytes, expected ${row.dims} floats.`,
    );
  }
  const view = new DataView(row.vector.buffer, row.vector.byteOffset, row.vector.byteLength);
  return Float32Array.from({ length: row.dims }, (_v, i) => view.getFloat32(i * FLOAT_BYTES, true));
}

/** pgvector's text form of a vector ('[0.1,0.2]'); null when pgvector cannot hold it (NaN or an infinity). */
function vectorLiteral(vector: ArrayLike<number>): string | null {
  const values = Array.from(vector);
  return values.every(Number.isFinite) ? `[${values.join(',')}]` : null;
}

function candidates(rows: EmbeddingRow[]): { ownerId: string; vector: Float32Array }[] {
  return rows.map((row) => ({ ownerId: row.owner_id, vector: fromBytes(row) }));
}

/** Exact: every vector of that kind, model and size, scored in PIE (no pgvector on the server). */
async function nearestByScan(sql: Sql, query: NearestQuery, dims: number): Promise<NearestHit[]> {
  const rows = await sql.all<EmbeddingRow>(
    `SELECT owner_kind, owner_id, model, dims, vector FROM embeddings
     WHERE owner_kind = @ownerKind AND model = @model AND dims = @dims`,
    { ownerKind: query.ownerKind, model: query.model, dims },
  );
  return nearestByCosine({ query: query.vector, candidates: candidates(rows), limit: query.limit });
}

/**
 * With pgvector: the server picks the candidates through the HNSW index of that kind and size (approximate), in a
 * transaction of their own (a savepoint inside the caller's) so the search settings stay local; PIE scores them
 * from their float32 bytes as the exact scan does. Outside a transaction the index is built first when missing.
 */
async function nearestByIndex(
  sql: Sql,
  hnsw: HnswIndexes,
  inTransaction: boolean,
  query: NearestQuery,
  dims: number,
): Promise<NearestHit[]> {
  const literal = vectorLiteral(query.vector);
  if (literal === null || query.limit === 0) return [];
  const key = { kind: query.ownerKind, dims };
  if (!inTransaction) await hnsw.ensure(sql, key);
  const rows = await sql.atomic(async (tx) => {
    await tx.one(searchSettingsSql(query.limit, hnsw.iterativeScan));
    return tx.all<EmbeddingRow>(nearestSql(key), { model: query.model, query: literal, limit: query.limit });
  });
  return nearestByCosine({ query: query.vector, candidates: candidates(rows), limit: query.limit });
}

/** pgvector's text form of a stored float32 byte vector (a restored row), or null when it cannot hold it. */
export function vectorLiteralOfBytes(bytes: Uint8Array): string | null {
  if (bytes.byteLength === 0 || bytes.byteLength % FLOAT_BYTES !== 0) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return vectorLiteral(
    Float32Array.from({ length: bytes.byteLength / FLOAT_BYTES }, (_v, i) => view.getFloat32(i * FLOAT_BYTES, true)),
  );
}

/**
 * Vectors are always kept as float32 bytes (what `all` returns). With pgvector (`hnsw` given) the same vector is
 * also stored in the `embedding` column of pgvector's type, which `nearest` searches through an HNSW index per
 * owner kind and vector size (see hnsw.ts); without it, `nearest` is an exact scan in PIE.
 */
export function createEmbeddingRepo(
  sql: Sql,
  context: { hnsw: HnswIndexes | null; inTransaction: () => boolean },
): EmbeddingRepo {
  const { hnsw } = context;
  const withVector = hnsw !== null;
  return {
    async put(input) {
      ownerTable(input.ownerKind);
      checkVector(input);
      await sql.run(
        `INSERT INTO embeddings (owner_kind, owner_id, model, dims, vector, created_at${withVector ? ', embedding' : ''})
         VALUES (@ownerKind, @ownerId, @model, @dims, @vector, @createdAt${withVector ? ', @embedding::vector' : ''})
         ON CONFLICT (owner_kind, owner_id, model) DO UPDATE SET
           dims = excluded.dims, vector = excluded.vector, created_at = excluded.created_at
           ${withVector ? ', embedding = excluded.embedding' : ''}`,
        {
          ownerKind: input.ownerKind,
          ownerId: input.ownerId,
          model: input.model,
          dims: input.vector.length,
          vector: toBytes(input.vector),
          createdAt: input.createdAt,
          ...(withVector ? { embedding: vectorLiteral(input.vector) } : {}),
        },
      );
      if (hnsw) {
        hnsw.want({ kind: input.ownerKind, dims: input.vector.length });
        if (!context.inTransaction()) await hnsw.buildWanted(sql);
      }
    },

    async all({ ownerKind, model }) {
      ownerTable(ownerKind);
      const rows = await sql.all<EmbeddingRow>(
        `SELECT owner_kind, owner_id, model, dims, vector FROM embeddings
         WHERE owner_kind = @ownerKind AND model = @model ORDER BY owner_id`,
        { ownerKind, model },
      );
      return rows.map((row) => ({
        ownerKind: row.owner_kind,
        ownerId: row.owner_id,
        model: row.model,
        vector: fromBytes(row),
      }));
    },

    async nearest(query) {
      const dims = checkNearest(query);
      return hnsw ? nearestByIndex(sql, hnsw, context.inTransaction(), query, dims) : nearestByScan(sql, query, dims);
    },

    async missing({ ownerKind, model, limit }) {
      const table = ownerTable(ownerKind);
      const rows = await sql.all<{ id: string }>(
        `SELECT o.id FROM ${table} o
         WHERE NOT EXISTS (SELECT 1 FROM embeddings m
                           WHERE m.owner_kind = @ownerKind AND m.owner_id = o.id AND m.model = @model)
         ORDER BY o.id LIMIT @limit`,
        { ownerKind, model, limit: limitParam(limit) },
      );
      return rows.map((r) => r.id);
    },

    async count({ ownerKind, model }) {
      ownerTable(ownerKind);
      const row = await sql.one<{ n: number }>(
        'SELECT count(*) AS n FROM embeddings WHERE owner_kind = @ownerKind AND model = @model',
        { ownerKind, model },
      );
      return Number(row?.n ?? 0);
    },

    deleteOtherModels: (model) => sql.run('DELETE FROM embeddings WHERE model <> @model', { model }),
  };
}
