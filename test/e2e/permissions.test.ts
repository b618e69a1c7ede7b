import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { pie, SAMPLE, tempDir } from '../helpers/cli.js';

/**
 * A user's history is readable by its owner only (issue 15, item 5): PIE's folder 0700, the database and its -wal
 * and -shm files, backups and exported notes 0600; an existing database readable by others draws a warning.
 */
let dir: string;
let cleanup: () => void;
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(() => cleanup());

describe('file permissions', () => {
  it('creates the PIE folder 0700 and the database, WAL, SHM, backup and export 0600', async () => {
    const home = join(dir, 'home', '.pie');
    const env = { PIE_HOME: home, PIE_DB: undefined };
    const ingest = await pie(['ingest', SAMPLE, '--extractor', 'offline'], env);
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(mode(home)).toBe('700');
    const db = join(home, 'pie.db');
    expect(mode(db)).toBe('600');
    // The -wal and -shm files exist while a connection has the database open (SQLite removes them at the last close).
    const store = await openSqliteStore({ path: db });
    await store.maintenance.append({
      id: 'x',
      kind: 'test',
      startedAt: 0,
      finishedAt: 0,
      status: 'completed',
      report: {},
    });
    expect(mode(`${db}-wal`)).toBe('600');
    expect(mode(`${db}-shm`)).toBe('600');
    await store.close();
    const backup = join(dir, 'backup.jsonl.gz');
    expect((await pie(['backup', backup], env)).code).toBe(0);
    expect(mode(backup)).toBe('600');
    const vault = join(dir, 'vault');
    expect((await pie(['export', 'obsidian', vault], env)).code).toBe(0);
    expect(mode(vault)).toBe('700');
    expect(mode(join(vault, '.pie-export.json'))).toMatch(/600/);
    expect(ingest.stderr).not.toContain('can be read by other accounts');
  });

  it('warns once when an existing database is readable by others, and still works', async () => {
    mkdirSync(join(dir, 'open'), { recursive: true });
    const db = join(dir, 'open', 'pie.db');
    expect((await pie(['--db', db, 'ingest', SAMPLE, '--extractor', 'offline'])).code).toBe(0);
    chmodSync(db, 0o644);
    const r = await pie(['--db', db, 'stats']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `pie: warning: the database ${db} can be read by other accounts on this machine (mode 644); run chmod 600`,
    );
    expect(r.stderr.split('can be read by other accounts').length - 1).toBe(1);
  });
});
