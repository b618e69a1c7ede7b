import { PieError } from '../../../domain/errors.js';
import { PG_LATEST_SCHEMA_VERSION, PG_MIGRATIONS } from './migrations/index.js';
import type { Driver } from './driver.js';
import { quoteIdent, type Session } from './sql.js';

/** A fixed key for the advisory lock that makes concurrent openers migrate one at a time. */
const MIGRATION_LOCK = 0x50494501;

async function readVersion(session: Session, schema: string): Promise<number> {
  const exists = await session.query(
    `SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'schema_migrations'`,
    [schema],
  );
  if (exists.rows.length === 0) return 0;
  const row = (await session.query(`SELECT coalesce(max(version), 0) AS v FROM schema_migrations`, [])).rows[0];
  return Number(row?.v ?? 0);
}

/**
 * Creates the schema when missing and applies the missing migrations in one transaction, under an advisory lock
 * so that two processes opening a fresh database migrate it once. A schema with other tables but no PIE log, or a
 * newer schema than this code knows, is refused before anything is written. Returns the schema version.
 */
export async function migrate(input: {
  driver: Driver;
  schema: string;
  location: string;
  now: () => number;
}): Promise<number> {
  const { driver, schema, location } = input;
  const session = await driver.connect();
  let broken = false;
  try {
    await session.query('BEGIN', []);
    try {
      await session.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await session.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      const current = await readVersion(session, schema);
      await refuse(session, schema, location, current);
      for (const step of PG_MIGRATIONS) {
        if (step.version <= current) continue;
        await session.exec(step.sql);
        await session.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          step.version,
          step.name,
          input.now(),
        ]);
      }
      await session.query('COMMIT', []);
      return Math.max(current, PG_LATEST_SCHEMA_VERSION);
    } catch (error) {
      await session.query('ROLLBACK', []).catch(() => {
        broken = true;
      });
      throw error;
    }
  } finally {
    session.release(broken);
  }
}

async function refuse(session: Session, schema: string, location: string, version: number): Promise<void> {
  if (version > PG_LATEST_SCHEMA_VERSION) {
    throw new PieError(
      'DB_NEWER_SCHEMA',
      `The database ${location} was written by a newer PIE (schema ${version}, this PIE knows ${PG_LATEST_SCHEMA_VERSION}); upgrade PIE or use another --db.`,
      { details: { schemaVersion: version, knownVersion: PG_LATEST_SCHEMA_VERSION } },
    );
  }
  if (version > 0) return;
  const others = await session.query(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = $1`, [
    schema,
  ]);
  if (Number(others.rows[0]?.n ?? 0) > 0) {
    throw new PieError(
      'DB_CORRUPT',
      `The schema "${schema}" in ${location} already holds other tables and is not a PIE memory; use another database or schema.`,
    );
  }
}
