import type { Migration } from './types.js';

/**
 * Schema 8: conversations a person asked PIE to forget (`pie forget`), so that importing the same export again does
 * not bring them back. Only a keyed digest of the conversation's id is kept (see privacy/forgotten-key.ts): nothing
 * in the row says what the conversation was.
 */
const sql = `
CREATE TABLE forgotten_episodes (
  key           TEXT PRIMARY KEY,
  forgotten_at  INTEGER NOT NULL
);
`;

export const migration008: Migration = { version: 8, name: 'forgotten_episodes', sql };
