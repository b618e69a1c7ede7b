import type { Lease, LeaseHolder, LeaseRepo } from '../../../ports/lease-store.js';
import type { SyncOf } from './bind.js';
import type { Statements } from './sql.js';

export interface LeaseRow {
  name: string;
  holder_id: string;
  pid: number;
  host: string;
  purpose: string;
  acquired_at: number;
  expires_at: number;
}

export function leaseFromRow(row: LeaseRow): Lease {
  return {
    name: row.name,
    holder: { id: row.holder_id, pid: row.pid, host: row.host, purpose: row.purpose },
    acquiredAt: row.acquired_at,
    expiresAt: row.expires_at,
  };
}

const SELECT = 'SELECT * FROM work_leases WHERE name = ?';

export function createLeaseRepo(s: Statements): SyncOf<LeaseRepo> {
  const read = (name: string): Lease | null => {
    const row = s.get(SELECT).get(name) as LeaseRow | undefined;
    return row ? leaseFromRow(row) : null;
  };
  return {
    acquire({ name, holder, now, ttlMs, isDead }) {
      // IMMEDIATE: the read and the write happen under the database's write lock, so two processes cannot both
      // see the lease free and both take it.
      return s.atomic(() => {
        const current = read(name);
        const free =
          current === null || current.holder.id === holder.id || current.expiresAt <= now || isDead(current.holder);
        if (!free) return { taken: false as const, lease: current };
        s.get(
          `INSERT INTO work_leases (name, holder_id, pid, host, purpose, acquired_at, expires_at)
           VALUES (@name, @holder_id, @pid, @host, @purpose, @now, @expires)
           ON CONFLICT (name) DO UPDATE SET holder_id = excluded.holder_id, pid = excluded.pid, host = excluded.host,
             purpose = excluded.purpose, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
        ).run({ ...holderParams(holder), name, now, expires: now + ttlMs });
        return { taken: true as const, lease: read(name) as Lease };
      });
    },
    renew({ name, holderId, now, ttlMs }) {
      const info = s
        .get('UPDATE work_leases SET expires_at = @expires WHERE name = @name AND holder_id = @holderId')
        .run({ name, holderId, expires: now + ttlMs });
      return info.changes > 0;
    },
    release({ name, holderId }) {
      s.get('DELETE FROM work_leases WHERE name = ? AND holder_id = ?').run(name, holderId);
    },
    get: read,
    // BEGIN IMMEDIATE: a write transaction already excludes every other writer until it ends.
    lockForTransaction: () => true,
  };
}

function holderParams(holder: LeaseHolder): Record<string, string | number> {
  return { holder_id: holder.id, pid: holder.pid, host: holder.host, purpose: holder.purpose };
}
