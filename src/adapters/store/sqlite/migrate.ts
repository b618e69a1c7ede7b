import { PieError } from '../../../domain/errors.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations/index.js';
import type { Db } from './sql.js';

/**
 * Schema versioning. The authoritative version is SQLite's `PRAGMA user_version` (in the file header, so it is
 * readable without knowing any table and it commits or rolls back with the migration transaction). The table
 * `schema_migrations` additionally logs when each step was applied. `PRAGMA application_id` marks the file as a
 * PIE database, so that another program's SQLite file is refused instead of being written into.
 */
export const PIE_APPLICATION_ID = 0x50494500; // "PIE\0"

export function readSchemaVersion(db: Db): number {
  return Number(db.pragma('user_version', { simple: true }));
}

/**
 * Refuses files PIE must not touch: another application's database, a non-empty database without a PIE schema,
 * or a schema newer than this code. Reads only; safe to call before any pragma that writes.
 */
export function checkDatabase(db: Db, path: string): number {
  // One read transaction, so the version and the tables are of one moment: another process creating the same new
  // file commits its first migration all at once, and reads on either side of that commit would see a schema
  // without its version (a PIE file taken for another program's).
  const read = (): { version: number; applicationId: number; objects: number } => ({
    version: readSchemaVersion(db),
    applicationId: Number(db.pragma('application_id', { simple: true })),
    objects: Number(db.prepare("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").pluck().get()),
  });
  const { version, applicationId, objects } = db.inTransaction ? read() : db.transaction(read).deferred();
  if (applicationId !== 0 && applicationId !== PIE_APPLICATION_ID) {
    throw new PieError(
      'DB_CORRUPT',
      `The file ${path} is a SQLite database of another application, not a PIE database; use another --db.`,
    );
  }
  if (version === 0) {
    if (objects > 0) {
      throw new PieError(
        'DB_CORRUPT',
        `The file ${path} is a SQLite database but not a PIE database (it already has other tables); use another --db.`,
      );
    }
  }
  if (version > LATEST_SCHEMA_VERSION) {
    throw new PieError(
      'DB_NEWER_SCHEMA',
      `The database ${path} was written by a newer PIE (schema ${version}, this PIE knows ${LATEST_SCHEMA_VERSION}); upgrade PIE or use another --db.`,
      { details: { schemaVersion: version, knownVersion: LATEST_SCHEMA_VERSION } },
    );
  }
  return version;
}

/**
 * Applies the missing migrations in order inside one IMMEDIATE transaction (all or nothing). The version is
 * re-read under the write lock, so two processes opening an old database at once migrate it only once.
 * Returns the schema version after migrating.
 */
export function migrate(db: Db, path: string, now: () => number): number {
  if (readSchemaVersion(db) === LATEST_SCHEMA_VERSION) return LATEST_SCHEMA_VERSION;
  db.exec('BEGIN IMMEDIATE');
  try {
    const current = checkDatabase(db, path);
    for (const step of MIGRATIONS) {
      if (step.version <= current) continue;
      db.exec(step.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        step.version,
        step.name,
        now(),
      );
      db.pragma(`user_version = ${step.version}`);
    }
    db.pragma(`application_id = ${PIE_APPLICATION_ID}`);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
  return LATEST_SCHEMA_VERSION;
}
