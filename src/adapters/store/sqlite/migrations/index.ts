import { migration001 } from './001_initial.js';
import { migration002 } from './002_query_search.js';
import { migration003 } from './003_pyramid.js';
import { migration004 } from './004_history_counts.js';
import { migration005 } from './005_sleep_tasks.js';
import { migration006 } from './006_work_leases.js';
import { migration007 } from './007_personal_bench.js';
import { migration008 } from './008_forgotten.js';
import { migration009 } from './009_relationship_keys.js';
import { migration010 } from './010_tier_moves.js';
import type { Migration } from './types.js';

export type { Migration } from './types.js';

/** Every schema step, in order. Append new modules here (002_…, 003_…); never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
];

/** The schema version this code writes: the version of the last migration. */
export const LATEST_SCHEMA_VERSION: number = MIGRATIONS.length;
