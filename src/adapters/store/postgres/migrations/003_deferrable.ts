import type { PgMigration } from './types.js';

/**
 * Schema 3, for backup/restore and forgetting:
 * - Every foreign key becomes DEFERRABLE INITIALLY IMMEDIATE: checked per statement as before, but a restore can
 *   say SET CONSTRAINTS ALL DEFERRED and insert tables in any order, the references being checked at COMMIT (as
 *   SQLite's defer_foreign_keys does). ON DELETE actions still happen at once.
 * - pie_json_values(doc): the top-level values of a JSON text (an object's values, an array's elements, or a scalar
 *   itself), as SQLite's json_each gives them; no rows for NULL.
 */
const sql = `
DO $$
DECLARE c record;
BEGIN
  FOR c IN SELECT conrelid::regclass AS tbl, conname FROM pg_constraint
           WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
  LOOP
    EXECUTE format('ALTER TABLE %s ALTER CONSTRAINT %I DEFERRABLE INITIALLY IMMEDIATE', c.tbl, c.conname);
  END LOOP;
END $$;

CREATE FUNCTION pie_json_values(doc TEXT) RETURNS SETOF jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT x.v FROM (SELECT doc::jsonb AS j) d, LATERAL (
    SELECT value FROM jsonb_each(CASE WHEN jsonb_typeof(d.j) = 'object' THEN d.j END)
    UNION ALL SELECT value FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d.j) = 'array' THEN d.j END)
    UNION ALL SELECT d.j WHERE jsonb_typeof(d.j) NOT IN ('object', 'array')
  ) AS x(v)
$$;
`;

export const pgMigration003: PgMigration = { version: 3, name: 'deferrable references, JSON values', sql };
