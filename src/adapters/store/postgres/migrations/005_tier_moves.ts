import type { PgMigration } from './types.js';

/**
 * Schema 5 (SQLite's schema 10): an index of the journal rows that moved an entity's tier (journal.tierMoves), so a
 * snapshot reads every entity's tier history without reading the rest of the journal. Partial: only `entities`
 * updates whose tier differs between the two images; the condition is the one tierMoves asks, term for term.
 */
const sql = `
CREATE INDEX journal_tier_moves ON journal (run_id, seq)
  WHERE table_name = 'entities' AND op = 'update'
    AND (before::jsonb ->> 'tier') IS DISTINCT FROM (after::jsonb ->> 'tier');
`;

export const pgMigration005: PgMigration = { version: 5, name: 'tier moves', sql };
