export { openSqliteStore, refuseDirectory, type SqliteStoreOptions } from './open.js';
export { LATEST_SCHEMA_VERSION } from './migrations/index.js';
export { changeEncryption, type CipherChange, type CipherChangeSummary } from './change-cipher.js';
export { looksEncrypted } from './cipher.js';
