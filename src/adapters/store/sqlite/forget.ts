import { existsSync, statSync } from 'node:fs';
import { PieError } from '../../../domain/errors.js';
import type { CompactReport, ForgetStore } from '../../../ports/forget-store.js';
import type { SyncOf } from './bind.js';
import { applyForgetWrite } from './forget-apply.js';
import { forgetDependents } from './forget-dependents.js';
import { createForgetReads } from './forget-scan.js';
import type { Statements } from './sql.js';

/** `store.forget` over SQLite: reads (forget-scan, forget-dependents), the write (forget-apply) and compaction. */
export function createForgetStore(s: Statements): SyncOf<ForgetStore> {
  return {
    ...createForgetReads(s),
    dependents: (query) => forgetDependents(s, query),
    forgottenAmong: (keys) =>
      keys.length === 0
        ? []
        : (s
            .pluck('SELECT key FROM forgotten_episodes WHERE key IN (SELECT value FROM json_each(?))')
            .all(JSON.stringify(keys)) as string[]),
    clearForgotten: (keys) => {
      s.get('DELETE FROM forgotten_episodes WHERE key IN (SELECT value FROM json_each(?))').run(JSON.stringify(keys));
    },
    apply: (input) => applyForgetWrite(s, input),
    compact: () => compactDatabase(s),
  };
}

const sizeOf = (path: string): number => (existsSync(path) ? statSync(path).size : 0);

/**
 * VACUUM rebuilds the file from the live rows only (no free page keeps a removed row), then a TRUNCATE checkpoint
 * copies the rebuilt pages over the old ones and empties the write-ahead log, where older page images live. A
 * reader in another process can keep the log from being emptied: the report says so.
 */
function compactDatabase(s: Statements): CompactReport {
  const { db } = s;
  if (db.inTransaction) {
    throw new PieError('INTERNAL', 'The database cannot be compacted inside a transaction; compact after it ends.');
  }
  const file = db.memory ? null : db.name;
  const bytesBefore = file === null ? 0 : sizeOf(file);
  db.exec('VACUUM');
  const [checkpoint] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  return {
    bytesBefore,
    bytesAfter: file === null ? 0 : sizeOf(file),
    walTruncated: checkpoint?.busy === 0 && (file === null || sizeOf(`${file}-wal`) === 0),
  };
}
