import { PieError, errorMessage } from '../../../domain/errors.js';

/** A driver error as node-postgres and PGlite report it: an SQLSTATE `code`, or a Node system error code. */
interface DriverError {
  code?: unknown;
  message?: unknown;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH']);

/**
 * The one place where PostgreSQL errors become PieErrors (the driver error stays as `cause`). `location` is the
 * server address without credentials.
 */
export function translatePgError(error: unknown, location: string): PieError {
  if (error instanceof PieError) return error;
  const code = typeof (error as DriverError).code === 'string' ? String((error as DriverError).code) : '';
  const details = { sqlState: code };
  const make = (pieCode: PieError['code'], message: string): PieError =>
    new PieError(pieCode, message, { cause: error, details });
  const text = errorMessage(error);

  if (CONNECTION_CODES.has(code)) {
    return make(
      'DB_ERROR',
      `Cannot reach the PostgreSQL server ${location} (${code}); check that it runs and the URL is right.`,
    );
  }
  if (code === '28P01' || code === '28000') {
    return make(
      'DB_ERROR',
      `The PostgreSQL server ${location} refused the login; check the user and password in the URL.`,
    );
  }
  if (code === '3D000') {
    return make('DB_ERROR', `The database in ${location} does not exist; create it (createdb) or fix the URL.`);
  }
  if (code === '23503')
    return make('NOT_FOUND', `A record refers to an episode or entity that does not exist in ${location}.`);
  if (code === '23505') return make('CONFLICT', `A record with the same key already exists in ${location} (${text}).`);
  if (code.startsWith('23')) return make('INVALID_DATA', `A record was rejected by ${location}: ${text}.`);
  if (code === '40001' || code === '40P01' || code === '55P03') {
    return make('DB_LOCKED', `The database ${location} is busy with another process (${text}); try again.`);
  }
  if (code === '25006') return make('UNSUPPORTED', `The database ${location} is read-only; this operation writes.`);
  if (code === '53100') return make('DB_ERROR', `The PostgreSQL server ${location} is out of disk space.`);
  if (code !== '') return make('DB_ERROR', `Storage failure on ${location}: ${text} (SQLSTATE ${code}).`);
  return new PieError('INTERNAL', `Unexpected storage failure on ${location}: ${text}`, { cause: error });
}
