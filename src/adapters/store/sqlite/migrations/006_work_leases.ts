import type { Migration } from './types.js';

/**
 * Schema 6: work leases. One row per claimed piece of work (`extraction`): who holds it (a run id, pid and host),
 * since when and until when (wall-clock milliseconds). Two processes on one database take the lease in an IMMEDIATE
 * transaction, so only one extracts at a time; an expired lease, or one whose process is gone, is taken over.
 * Leases are bookkeeping of running processes, not data: backups leave them out.
 */
const sql = `
CREATE TABLE work_leases (
  name        TEXT PRIMARY KEY,
  holder_id   TEXT NOT NULL,
  pid         INTEGER NOT NULL,
  host        TEXT NOT NULL,
  purpose     TEXT NOT NULL,
  acquired_at INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);
`;

export const migration006: Migration = { version: 6, name: 'work_leases', sql };
