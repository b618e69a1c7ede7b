import { PieError } from '../../../domain/errors.js';
import type { CompactReport, ForgetStore } from '../../../ports/forget-store.js';
import { applyForgetWrite } from './forget-apply.js';
import { forgetDependents } from './forget-dependents.js';
import { anyOf, createForgetReads } from './forget-scan.js';
import type { SearchStats } from './search-stats.js';
import { quoteIdent, type Sql } from './sql.js';

/** `store.forget` over PostgreSQL: reads (forget-scan, forget-dependents), the write (forget-apply) and compaction. */
export function createForgetStore(
  sql: Sql,
  context: { inTransaction: () => boolean; searchStats: SearchStats },
): ForgetStore {
  return {
    ...createForgetReads(sql),
    dependents: (query) => forgetDependents(sql, query),
    forgottenAmong: async (keys) =>
      keys.length === 0
        ? []
        : (
            await sql.all<{ key: string }>(`SELECT key FROM forgotten_episodes WHERE key ${anyOf('keys')}`, {
              keys: [...keys],
            })
          ).map((r) => r.key),
    clearForgotten: async (keys) => {
      if (keys.length > 0)
        await sql.run(`DELETE FROM forgotten_episodes WHERE key ${anyOf('keys')}`, { keys: [...keys] });
    },
    apply: (input) => applyForgetWrite(sql, input),
    compact: () => compactTables(sql, context),
  };
}

const SIZE = `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS n FROM pg_class c
  WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'`;

/**
 * PostgreSQL has no file of PIE's own to rewrite. A deleted row's old version stays in its table's pages until
 * VACUUM removes it, and in the server's write-ahead log, its replicas and its base backups until those are
 * recycled, which only the server's operator controls. So this runs a plain VACUUM of the memory's tables (it
 * takes no lock that stops readers or writers; a table this role does not own is skipped with a warning, and the
 * server's autovacuum gets to it later) and reports `storage: 'server'` with `walTruncated: false`.
 */
async function compactTables(
  sql: Sql,
  context: { inTransaction: () => boolean; searchStats: SearchStats },
): Promise<CompactReport> {
  if (context.inTransaction()) {
    throw new PieError('INTERNAL', 'The database cannot be compacted inside a transaction; compact after it ends.');
  }
  const size = async (): Promise<number> => Number((await sql.one<{ n: number }>(SIZE))?.n ?? 0);
  const bytesBefore = await size();
  const tables = await sql.all<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const schema = await sql.one<{ name: string }>('SELECT current_schema() AS name');
  if (tables.length > 0 && schema) {
    await sql.run(`VACUUM ${tables.map((t) => `${quoteIdent(schema.name)}.${quoteIdent(t.name)}`).join(', ')}`);
    // VACUUM updates the planner's row counts, which the search budget reads: read them again.
    context.searchStats.forget();
  }
  return { bytesBefore, bytesAfter: await size(), walTruncated: false, storage: 'server' };
}
