import pg from 'pg';
import { PieError } from '../../../domain/errors.js';
import { stripUrlCredentials } from '../../../domain/secrets.js';
import type { WorldStore } from '../../../ports/world-store.js';
import { PgConnection } from './connection.js';
import { pgliteDriver, poolDriver, type Driver, type PgliteLike } from './driver.js';
import { translatePgError } from './errors.js';
import { migrate } from './migrate.js';
import { detectVectors } from './pgvector.js';
import { quoteIdent } from './sql.js';
import { createPgStore } from './store.js';

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database`; credentials are used to connect and never printed. */
  url?: string;
  /** An open PGlite instance instead of a server (tests, embedded use); it is not closed by the store. */
  pglite?: PgliteLike;
  /** The schema holding this memory's tables; created when missing. Default "pie". */
  schema?: string;
  /** Record-time clock for bookkeeping columns; default Date.now. */
  clock?: () => number;
  /** Pool size for a server; default 10. */
  poolSize?: number;
}

export const DEFAULT_SCHEMA = 'pie';
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const INT8_OID = 20;

/** Epoch milliseconds fit a double exactly; BIGINT columns and counts come back as numbers. */
function parseInt8(value: string): number {
  return Number(value);
}

function checkSchema(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `"${schema}" is not a usable schema name; use lowercase letters, digits and underscores (up to 63).`,
    );
  }
}

function serverDriver(url: string, schema: string, poolSize: number): { driver: Driver; location: string } {
  const location = stripUrlCredentials(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `"${location}" is not a PostgreSQL URL; write postgres://user@host:5432/db.`,
      {
        cause,
      },
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new PieError('INVALID_ARGUMENT', `"${location}" must start with postgres:// or postgresql://.`);
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: `-c search_path=${quoteIdent(schema)},public`,
    connectionTimeoutMillis: 10_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server emits 'error' on the pool; the next query reports the failure itself.
  pool.on('error', (error) => {
    lastIdleError = error;
  });
  return { driver: poolDriver(pool), location };
}

/** The last error of an idle pooled client (kept for diagnostics; never thrown at a random moment). */
export let lastIdleError: Error | undefined;

/** Opens (creating the schema and migrating when needed) a PostgreSQL world store. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<WorldStore> {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  checkSchema(schema);
  let driver: Driver;
  let location: string;
  if (options.pglite) {
    driver = pgliteDriver(options.pglite, { owned: false, schema });
    location = `PGlite (schema ${schema})`;
  } else if (options.url !== undefined) {
    ({ driver, location } = serverDriver(options.url, schema, options.poolSize ?? 10));
    // Several memories may share a database, one schema each: the location names a schema other than the default.
    if (schema !== DEFAULT_SCHEMA) location = `${location} (schema ${schema})`;
  } else {
    throw new PieError('INVALID_ARGUMENT', 'A PostgreSQL store needs a URL (postgres://…) or a PGlite instance.');
  }
  const clock = options.clock ?? Date.now;
  try {
    const version = await migrate({ driver, schema, location, now: clock });
    const vectors = await detectVectors(driver);
    const conn = new PgConnection(driver, location, version, vectors, clock);
    return createPgStore(conn, conn.root);
  } catch (error) {
    await driver.end().catch(() => undefined);
    throw translatePgError(error, location);
  }
}
