export { openPostgresStore, DEFAULT_SCHEMA, type PostgresStoreOptions } from './open.js';
export { PG_LATEST_SCHEMA_VERSION } from './migrations/index.js';
