export { openSqliteStore, type SqliteStoreOptions } from './open.js';
export { LATEST_SCHEMA_VERSION } from './migrations/index.js';
