import type { Lease, LeaseHolder, LeaseRepo } from '../../../ports/lease-store.js';
import type { Sql } from './sql.js';
import { leaseFromRow, type LeaseRow } from '../sqlite/leases.js';

const SELECT =
  'SELECT name, holder_id, pid, host, purpose, acquired_at, expires_at FROM work_leases WHERE name = @name';

function holderParams(holder: LeaseHolder): Record<string, string | number> {
  return { holderId: holder.id, pid: holder.pid, host: holder.host, purpose: holder.purpose };
}

export function createLeaseRepo(sql: Sql): LeaseRepo {
  const read = async (q: Sql, name: string): Promise<Lease | null> => {
    const row = await q.one<LeaseRow>(SELECT, { name });
    return row ? leaseFromRow(row) : null;
  };
  return {
    acquire({ name, holder, now, ttlMs, isDead }) {
      // A transaction-scoped advisory lock on the lease's name: two processes cannot both see it free and both
      // take it, even when no row exists yet (a row lock would need the row).
      return sql.atomic(async (tx) => {
        await tx.run('SELECT pg_advisory_xact_lock(hashtext(@key))', { key: `pie-lease:${name}` });
        const current = await read(tx, name);
        const free =
          current === null || current.holder.id === holder.id || current.expiresAt <= now || isDead(current.holder);
        if (!free) return { taken: false as const, lease: current };
        await tx.run(
          `INSERT INTO work_leases (name, holder_id, pid, host, purpose, acquired_at, expires_at)
           VALUES (@name, @holderId, @pid, @host, @purpose, @now, @expires)
           ON CONFLICT (name) DO UPDATE SET holder_id = excluded.holder_id, pid = excluded.pid, host = excluded.host,
             purpose = excluded.purpose, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
          { ...holderParams(holder), name, now, expires: now + ttlMs },
        );
        return { taken: true as const, lease: (await read(tx, name)) as Lease };
      });
    },
    async renew({ name, holderId, now, ttlMs }) {
      const n = await sql.run(
        'UPDATE work_leases SET expires_at = @expires WHERE name = @name AND holder_id = @holderId',
        { name, holderId, expires: now + ttlMs },
      );
      return n > 0;
    },
    async release({ name, holderId }) {
      await sql.run('DELETE FROM work_leases WHERE name = @name AND holder_id = @holderId', { name, holderId });
    },
    get: (name) => read(sql, name),
    async lockForTransaction(name) {
      const row = await sql.one<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext(@key)) AS locked', {
        key: `pie-run:${name}`,
      });
      return row?.locked === true;
    },
  };
}
