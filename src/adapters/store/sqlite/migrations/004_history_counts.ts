import type { Migration } from './types.js';

/**
 * Schema 4: an entity's transitions by kind. Counting a hub entity's history by kind (every entity block of a
 * question does) read each of its rows through transitions_by_entity; with the kind in the index the count is
 * answered from the index alone (a few milliseconds down to well under one on the scale benchmark's busiest entity).
 */
const sql = `
CREATE INDEX transitions_by_entity_kind ON transitions (entity_id, kind, event_time);
`;

export const migration004: Migration = { version: 4, name: 'history_counts', sql };
