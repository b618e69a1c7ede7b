import { closeSync, existsSync, openSync, statSync } from 'node:fs';

/**
 * A chat history is private: PIE's folders are created readable by their owner only (0700) and every file it writes
 * (the database, its -wal and -shm files, backups, exported notes) 0600. SQLite creates its -wal and -shm files with
 * the database file's permissions, so creating that file 0600 first is enough for all three.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates an empty file readable by its owner only, when it does not exist yet. */
export function ensurePrivateFile(path: string): void {
  if (existsSync(path)) return;
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
}

/** The permission bits of a file when other accounts can read or write it ("644"), else null. */
export function openToOthers(path: string): string | null {
  if (!existsSync(path)) return null;
  const mode = statSync(path).mode & 0o777;
  return (mode & 0o077) === 0 ? null : mode.toString(8);
}
