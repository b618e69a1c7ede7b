import { pgMigration001 } from './001_initial.js';
import { pgMigration002 } from './002_triggers.js';
import { pgMigration003 } from './003_deferrable.js';
import { pgMigration004 } from './004_forgotten.js';
import { pgMigration005 } from './005_tier_moves.js';
import { pgMigration006 } from './006_search_punctuation.js';
import type { PgMigration } from './types.js';

export type { PgMigration } from './types.js';

/** Every PostgreSQL schema step, in order. Append new modules; never edit one that has shipped. */
export const PG_MIGRATIONS: readonly PgMigration[] = [
  pgMigration001,
  pgMigration002,
  pgMigration003,
  pgMigration004,
  pgMigration005,
  pgMigration006,
];

export const PG_LATEST_SCHEMA_VERSION: number = PG_MIGRATIONS.length;
