import type { Migration } from './types.js';

/**
 * Schema 10: an index of the journal rows that moved an entity's tier (journal.tierMoves), so that a snapshot can
 * read the tier every entity had at its instant from the runs that moved it without reading the rest of the journal
 * (a full sleep of the 20k-entity benchmark world journals about 95,000 rows, 13,000 of them tier moves). Partial:
 * the journal's other rows (importance, facts, transitions …) are not in it, and its condition is the one tierMoves
 * asks, term for term, which is how SQLite knows the index serves the query. Covering: it holds the two tiers and
 * the clock, so the rows' JSON images are not read and parsed again (13,000 moves: about 17–30 ms of CPU, against
 * 65 ms with the key columns alone).
 */
const sql = `
CREATE INDEX journal_tier_moves
  ON journal (run_id, seq, row_id, json_extract(before, '$.tier'), json_extract(after, '$.tier'), at)
  WHERE table_name = 'entities' AND op = 'update'
    AND json_extract(before, '$.tier') IS NOT json_extract(after, '$.tier');
`;

export const migration010: Migration = { version: 10, name: 'tier_moves', sql };
