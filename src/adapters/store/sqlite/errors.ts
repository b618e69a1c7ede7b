import Database from 'better-sqlite3';
import { PieError, errorMessage } from '../../../domain/errors.js';
import { unreadableError } from './cipher.js';

/**
 * The one place where driver errors become PieErrors. Everything the adapter runs against better-sqlite3 passes
 * through here, so callers only ever see PieError codes, with the driver error kept as `cause`.
 */
export function translateSqliteError(error: unknown, path: string, options: { keyed?: boolean } = {}): PieError {
  if (error instanceof PieError) return error;
  if (error instanceof Database.SqliteError) return fromSqliteCode(error, path, options.keyed ?? false);
  if (error instanceof TypeError && /database connection is not open/i.test(error.message)) {
    return new PieError('DB_ERROR', `The database ${path} is already closed.`, { cause: error });
  }
  return new PieError('INTERNAL', `Unexpected storage failure on ${path}: ${errorMessage(error)}`, { cause: error });
}

/** `keyed`: the connection was given a key, so an unreadable file means a wrong key (./cipher.ts). */
function fromSqliteCode(error: InstanceType<typeof Database.SqliteError>, path: string, keyed: boolean): PieError {
  const code = error.code;
  const details = { sqliteCode: code };
  const make = (pieCode: PieError['code'], message: string): PieError =>
    new PieError(pieCode, message, { cause: error, details });

  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return make(
      'DB_LOCKED',
      `The database ${path} is in use by another process; close it or wait until it finishes, then try again.`,
    );
  }
  if (code === 'SQLITE_NOTADB') return unreadableError(path, keyed, error, details);
  if (code.startsWith('SQLITE_CORRUPT')) {
    return make('DB_CORRUPT', `The database ${path} is damaged (${error.message}); restore it from a backup.`);
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
    return make('NOT_FOUND', `A record refers to an episode or entity that does not exist in ${path}.`);
  }
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') {
    return make('CONFLICT', `A record with the same key already exists in ${path} (${error.message}).`);
  }
  if (code.startsWith('SQLITE_CONSTRAINT')) {
    return make('INVALID_DATA', `A record was rejected by ${path}: ${error.message}.`);
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return make('UNSUPPORTED', `The database ${path} is open read-only; this operation writes.`);
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return make('DB_ERROR', `Cannot open the database ${path}; check that the directory exists and is writable.`);
  }
  if (code === 'SQLITE_FULL') {
    return make('DB_ERROR', `The disk holding ${path} is full; free some space and try again.`);
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return make('DB_ERROR', `Reading or writing ${path} failed (${error.message}); check the disk and permissions.`);
  }
  return make('DB_ERROR', `Storage failure on ${path}: ${error.message} (${code}).`);
}
