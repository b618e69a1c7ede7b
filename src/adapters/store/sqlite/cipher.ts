/**
 * Encryption at rest (docs/privacy.md "Encryption at rest"). The driver is better-sqlite3-multiple-ciphers, installed
 * under better-sqlite3's name: SQLite3 Multiple Ciphers encrypts every page (ChaCha20-Poly1305 by default) once a
 * connection's first statement is `PRAGMA key`. Without a key a database is a plain SQLite file, as before.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { PieError } from '../../../domain/errors.js';
import type { Db } from './sql.js';

const SQLITE_HEADER = 'SQLite format 3\u0000';

/** A key as a SQL string literal (quotes doubled); the key never goes anywhere else. */
function literal(key: string): string {
  return `'${key.replace(/'/g, "''")}'`;
}

/** Gives the connection its key; must be the first statement on it. */
export function applyKey(db: Db, key: string): void {
  db.pragma(`key=${literal(key)}`);
}

/** Re-encrypts the open database with `key` ('' writes it in plain text). The database must not be in WAL mode. */
export function rekey(db: Db, key: string): void {
  db.pragma(`rekey=${literal(key)}`);
}

/** Bytes read to tell an encrypted database (random-looking pages) from other files. */
const SAMPLE = 1024;

/**
 * True when the file looks like an encrypted database: it does not start with SQLite's plain-text header, and its
 * first kilobyte looks random (nearly every byte value occurs, as in ciphertext; a text file has a few dozen).
 */
export function looksEncrypted(path: string): boolean {
  if (!existsSync(path)) return false;
  const stat = statSync(path);
  if (!stat.isFile() || stat.size < SAMPLE) return false;
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(SAMPLE);
    readSync(fd, head, 0, SAMPLE, 0);
    if (head.subarray(0, 16).toString('latin1') === SQLITE_HEADER) return false;
    return new Set(head).size >= 200;
  } finally {
    closeSync(fd);
  }
}

/** The error for a file SQLite cannot read as a database, worded by whether a key was given. */
export function unreadableError(
  path: string,
  keyed: boolean,
  cause: unknown,
  details?: Record<string, unknown>,
): PieError {
  const options = { cause, ...(details ? { details } : {}) };
  if (keyed) {
    return new PieError(
      'DB_KEY',
      `The key in PIE_DB_KEY (or PIE_DB_KEY_FILE) does not open ${path}: check the key, or unset it if the database is not encrypted.`,
      options,
    );
  }
  if (looksEncrypted(path)) {
    return new PieError(
      'DB_KEY',
      `The database ${path} is encrypted (or is not a SQLite file); set PIE_DB_KEY or PIE_DB_KEY_FILE to its key.`,
      options,
    );
  }
  return new PieError(
    'DB_CORRUPT',
    `The file ${path} is not a SQLite database; point --db at a PIE database file.`,
    options,
  );
}
