import { errorMessage } from '../../../domain/errors.js';
import type { VectorMode } from './connection.js';
import type { Driver } from './driver.js';
import { vectorLiteralOfBytes } from './embeddings.js';
import { sessionSql, type Sql } from './sql.js';

/** What a store knows about pgvector on its server. */
export interface VectorSupport {
  mode: VectorMode;
  /** How `pie stats` names the vector search: "pgvector HNSW", or an exact scan and why. */
  search: string;
  /** pgvector 0.8 or later: HNSW scans can go on past ef_search (hnsw.iterative_scan). */
  iterativeScan: boolean;
}

/** Rows per backfill batch. */
const BACKFILL_BATCH = 500;

function exact(why: string): VectorSupport {
  return { mode: 'exact', search: `exact scan (${why})`, iterativeScan: false };
}

/** "0.8.1" → true for 0.8 and later. */
export function hasIterativeScan(version: string): boolean {
  const [major, minor] = version.split('.').map((part) => Number.parseInt(part, 10));
  return (major ?? 0) > 0 || (minor ?? 0) >= 8;
}

/**
 * Uses pgvector when the server has it (creating the extension in `public` when allowed), else exact scan. The
 * vector column lives beside the byte copy, so a server that gains pgvector later only needs a reopen: the column
 * is added then and filled from the bytes of the vectors already stored, in the same transaction.
 */
export async function detectVectors(driver: Driver): Promise<VectorSupport> {
  const available = await driver.root.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`, []);
  if (available.rows.length === 0) return exact('pgvector not installed');
  const session = await driver.connect();
  let broken = false;
  try {
    await session.query('BEGIN', []);
    try {
      const sql = sessionSql(session, 1);
      // Two processes opening at once would otherwise race to create the extension or the column.
      await sql.one(`SELECT pg_advisory_xact_lock(hashtext('pie-pgvector'))`);
      await sql.run('CREATE EXTENSION IF NOT EXISTS vector SCHEMA public');
      const column = await sql.one(
        `SELECT 1 AS found FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = 'embeddings' AND column_name = 'embedding'`,
      );
      if (!column) {
        await sql.run('ALTER TABLE embeddings ADD COLUMN embedding public.vector');
        await backfill(sql);
      }
      const version = await sql.one<{ v: string }>(`SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'`);
      await session.query('COMMIT', []);
      return { mode: 'pgvector', search: 'pgvector HNSW', iterativeScan: hasIterativeScan(version?.v ?? '0') };
    } catch (error) {
      await session.query('ROLLBACK', []).catch(() => {
        broken = true;
      });
      // e.g. no privilege to create the extension: the exact scan still works.
      return exact(`pgvector not enabled: ${errorMessage(error)}`);
    }
  } finally {
    session.release(broken);
  }
}

/** Gives every stored vector its pgvector copy (those with NaN or an infinity stay without one). */
async function backfill(sql: Sql): Promise<void> {
  let after = { kind: '', id: '', model: '' };
  for (;;) {
    const rows = await sql.all<{ owner_kind: string; owner_id: string; model: string; vector: Uint8Array }>(
      `SELECT owner_kind, owner_id, model, vector FROM embeddings
       WHERE (owner_kind, owner_id, model) > (@kind, @id, @model)
       ORDER BY owner_kind, owner_id, model LIMIT @limit`,
      { ...after, limit: BACKFILL_BATCH },
    );
    const last = rows.at(-1);
    if (!last) return;
    const filled = rows.flatMap((r) => {
      const literal = vectorLiteralOfBytes(r.vector);
      return literal === null ? [] : [{ ...r, literal }];
    });
    await sql.run(
      `UPDATE embeddings e SET embedding = v.literal::public.vector
       FROM unnest(@kinds::text[], @ids::text[], @models::text[], @literals::text[]) AS v(kind, id, model, literal)
       WHERE e.owner_kind = v.kind AND e.owner_id = v.id AND e.model = v.model`,
      {
        kinds: filled.map((r) => r.owner_kind),
        ids: filled.map((r) => r.owner_id),
        models: filled.map((r) => r.model),
        literals: filled.map((r) => r.literal),
      },
    );
    after = { kind: last.owner_kind, id: last.owner_id, model: last.model };
  }
}
