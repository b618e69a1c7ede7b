import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { PieError } from '../../../domain/errors.js';
import { applyKey, looksEncrypted, rekey, unreadableError } from './cipher.js';
import { translateSqliteError } from './errors.js';
import { checkDatabase } from './migrate.js';
import { refuseDirectory } from './open.js';
import type { Db } from './sql.js';

export interface CipherChange {
  path: string;
  /** The key that opens the database now; undefined: it is plain text. */
  from: string | undefined;
  /** The key to write it with; undefined: plain text. */
  to: string | undefined;
}

export interface CipherChangeSummary {
  path: string;
  encrypted: boolean;
  tables: number;
  rows: number;
}

/**
 * Encrypts, decrypts or re-keys a database file without ever leaving it half-converted: the file is copied, the copy
 * is rewritten with the new key, checked (integrity, and every table's row count against the original), then put
 * in place with one rename. On any failure the copy is deleted and the original is untouched. Only while no other
 * process has the database open: leaving WAL mode needs every other connection closed, which is the check.
 */
export function changeEncryption(change: CipherChange): CipherChangeSummary {
  const path = resolve(change.path);
  refuseDirectory(path);
  if (!existsSync(path)) {
    throw new PieError('FILE_NOT_FOUND', `There is no database at ${path}; check --db or PIE_DB.`);
  }
  if (change.from === undefined && looksEncrypted(path)) {
    throw unreadableError(path, false, undefined);
  }
  const counts = withDatabase(path, change.from, (db) => {
    checkDatabase(db, path);
    quiesce(db, path);
    return tableCounts(db);
  });
  const copy = `${path}.converting-${process.pid}`;
  try {
    copyFileSync(path, copy);
    withDatabase(copy, change.from, (db) => rekey(db, change.to ?? ''));
    verify(copy, change.to, counts);
    syncFile(copy);
    renameSync(copy, path);
    syncFile(dirname(path));
  } catch (error) {
    rmSync(copy, { force: true });
    throw error instanceof PieError ? error : translateSqliteError(error, path);
  }
  for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
  return {
    path,
    encrypted: change.to !== undefined,
    tables: counts.size,
    rows: [...counts.values()].reduce((a, b) => a + b, 0),
  };
}

function withDatabase<T>(path: string, key: string | undefined, fn: (db: Db) => T): T {
  let db: Db;
  try {
    db = new Database(path, { fileMustExist: true, timeout: 5000 });
  } catch (error) {
    throw translateSqliteError(error, path);
  }
  try {
    if (key !== undefined) applyKey(db, key);
    return fn(db);
  } catch (error) {
    throw translateSqliteError(error, path, { keyed: key !== undefined });
  } finally {
    db.close();
  }
}

/** Folds the WAL into the file and leaves WAL mode, which SQLite allows only with no other connection open. */
function quiesce(db: Db, path: string): void {
  const busy = () =>
    new PieError(
      'DB_LOCKED',
      `Another process has ${path} open (a server, a chat or an ingest); stop it, then run this command again.`,
    );
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const mode = String(db.pragma('journal_mode = DELETE', { simple: true }));
    if (mode !== 'delete') throw busy();
  } catch (error) {
    if (error instanceof Database.SqliteError && /^SQLITE_(BUSY|LOCKED)/.test(error.code)) throw busy();
    throw error;
  }
}

function tableCounts(db: Db): Map<string, number> {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  return new Map(
    tables.map((t) => [
      t,
      Number(
        db
          .prepare(`SELECT count(*) FROM "${t.replace(/"/g, '""')}"`)
          .pluck()
          .get(),
      ),
    ]),
  );
}

function verify(copy: string, key: string | undefined, expected: ReadonlyMap<string, number>): void {
  if (looksEncrypted(copy) !== (key !== undefined)) {
    throw new PieError(
      'DB_ERROR',
      `The converted copy ${copy} is not ${key ? 'encrypted' : 'plain text'}; nothing was changed.`,
    );
  }
  withDatabase(copy, key, (db) => {
    const integrity = String(db.pragma('integrity_check', { simple: true }));
    const counts = tableCounts(db);
    const same = counts.size === expected.size && [...expected].every(([t, n]) => counts.get(t) === n);
    if (integrity !== 'ok' || !same) {
      throw new PieError(
        'DB_ERROR',
        `The converted copy did not check out (${integrity !== 'ok' ? `integrity: ${integrity}` : 'row counts differ'}); the database was left as it was.`,
      );
    }
  });
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
