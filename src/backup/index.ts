export { BACKUP_FORMAT, BACKUP_VERSION, type BackupHeader } from './format.js';
export { readLines, writeFileAtomically } from './files.js';
export { migrateStore, type MigratePhase, type MigrateSummary } from './migrate.js';
export { restoreBackup, type RestoreSummary } from './restore.js';
export { writeBackup, type BackupSummary, type LineSink } from './write.js';
