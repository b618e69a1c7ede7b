import type { Migration } from './types.js';

/**
 * Schema 9: the two relationship indexes by endpoint also carry the columns relationships.forEntity sorts by, so
 * that with a limit it picks its first edges from the indexes alone (one table read per edge returned instead of
 * one per edge of the entity: a hub has hundreds).
 *
 * Each index keeps its leading columns (endpoint, type, valid_to), so every query that searched it before searches
 * it the same way (findOpen/findLatest by endpoint, type and openness; validAt and the forget scan by endpoint; the
 * foreign-key cascades). The target index also holds source_id, for forEntity's "not a self-loop" test. Replacing
 * the two instead of adding two more keeps writes at four relationship indexes.
 */
const sql = `
DROP INDEX relationships_by_source;
CREATE INDEX relationships_by_source ON relationships (source_id, type, valid_to, valid_from, recorded_at, id);
DROP INDEX relationships_by_target;
CREATE INDEX relationships_by_target
  ON relationships (target_id, type, valid_to, valid_from, recorded_at, source_id, id);
`;

export const migration009: Migration = { version: 9, name: 'relationship_keys', sql };
