import type { PgMigration } from './types.js';

/**
 * Schema 4 (SQLite's schema 8): conversations a person asked PIE to forget, kept as a digest of their id so that
 * importing the same export again leaves them out (see privacy/forgotten-key.ts).
 */
const sql = `
CREATE TABLE forgotten_episodes (
  key           TEXT COLLATE "C" PRIMARY KEY,
  forgotten_at  BIGINT NOT NULL
);
`;

export const pgMigration004: PgMigration = { version: 4, name: 'forgotten episodes', sql };
