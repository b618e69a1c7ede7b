import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { PieError, errorMessage } from '../../../domain/errors.js';
import type { WorldStore } from '../../../ports/world-store.js';
import { applyKey } from './cipher.js';
import { Connection } from './connection.js';
import { translateSqliteError } from './errors.js';
import { checkDatabase, migrate } from './migrate.js';
import { LATEST_SCHEMA_VERSION } from './migrations/index.js';
import { createRepos } from './repos.js';
import { ensurePrivateFile, PRIVATE_DIR_MODE } from '../../../config/private-files.js';
import { Statements, type Db } from './sql.js';
import { createStore } from './store.js';

export interface SqliteStoreOptions {
  /** Database file; its directory is created when missing. `:memory:` gives a private in-memory database. */
  path: string;
  /** Open without writing anything: no migration, no WAL switch; writes fail with UNSUPPORTED. */
  readonly?: boolean;
  /** Refuse a file that does not exist yet instead of creating it (`readonly` implies it). */
  existing?: boolean;
  /** Record-time clock for bookkeeping columns (extraction status changes, migration log); default Date.now. */
  clock?: () => number;
  /** How long to wait for another process's lock before failing with DB_LOCKED; default 5000 ms. */
  busyTimeoutMs?: number;
  /** The key of an encrypted database (PIE_DB_KEY); a new database opened with a key is created encrypted. */
  key?: string | undefined;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;
const MEMORY = ':memory:';

/** Opens (creating and migrating when needed) a SQLite world store. */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<WorldStore> {
  const path = options.path === MEMORY ? MEMORY : resolve(options.path);
  const readonly = options.readonly ?? false;
  const clock = options.clock ?? Date.now;
  prepareLocation(path, readonly, readonly || options.existing === true);

  let db: Db;
  try {
    db = new Database(path, {
      readonly,
      fileMustExist: readonly,
      timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
    });
  } catch (error) {
    throw translateSqliteError(error, path);
  }
  const key = path === MEMORY ? undefined : options.key;
  try {
    if (key !== undefined) applyKey(db, key);
    const schemaVersion = initialize(db, path, readonly, clock);
    const connection = new Connection(db, path, schemaVersion, createRepos(new Statements(db), clock));
    return createStore(connection, connection.root);
  } catch (error) {
    db.close();
    throw translateSqliteError(error, path, { keyed: key !== undefined });
  }
}

/** A --db that names a directory: one sentence before SQLite or a read of the file trips over it. */
export function refuseDirectory(path: string): void {
  if (existsSync(path) && statSync(path).isDirectory()) {
    throw new PieError(
      'DB_ERROR',
      `The database path ${path} is a directory; point --db (or PIE_DB) at a database file, such as ${join(path, 'pie.db')}.`,
    );
  }
}

function prepareLocation(path: string, readonly: boolean, existing: boolean): void {
  if (path === MEMORY) return;
  refuseDirectory(path);
  if (existing && !existsSync(path)) {
    throw new PieError('FILE_NOT_FOUND', `There is no database at ${path} yet; import something first (pie ingest).`);
  }
  if (readonly) return;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
    ensurePrivateFile(path);
  } catch (error) {
    throw new PieError(
      'DB_ERROR',
      `Cannot create the directory for the database ${path} (${errorMessage(error)}); choose another --db.`,
      { cause: error },
    );
  }
}

/**
 * Checks before it writes: a file that is not SQLite, another application's database or a newer schema is refused
 * before any pragma that could change the file. Returns the schema version in use.
 */
function initialize(db: Db, path: string, readonly: boolean, clock: () => number): number {
  const version = checkDatabase(db, path);
  db.pragma('foreign_keys = ON');
  if (readonly) {
    if (version < LATEST_SCHEMA_VERSION) {
      throw new PieError(
        'DB_ERROR',
        `The database ${path} uses an older schema (${version}, this PIE writes ${LATEST_SCHEMA_VERSION}) and is opened read-only; run a writing command once (for example pie ingest) to upgrade it.`,
      );
    }
    return version;
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -32768'); // 32 MiB page cache: bulk imports touch the FTS index a lot
  return migrate(db, path, clock);
}
