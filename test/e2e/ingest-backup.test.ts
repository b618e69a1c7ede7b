import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSample, pie, tempDir } from '../helpers/cli.js';

/**
 * `pie ingest` given a `pie backup` file (black-box QA): a backup is JSON Lines, and was taken for a chat log whose
 * 1,000+ lines were all skipped, with exit 0. It is refused before anything is opened, pointing at pie restore.
 */
let dir: string;
let cleanup: () => void;
beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  const db = join(dir, 'source.db');
  await ingestSample(db);
  const plain = await pie(['--db', db, 'backup', join(dir, 'plain.jsonl')]);
  if (plain.code !== 0) throw new Error(plain.stderr);
  copyFileSync(db, join(dir, 'keyed.db'));
  const key = { PIE_DB_KEY: 'k' };
  const encrypted = await pie(['--db', join(dir, 'keyed.db'), 'encrypt'], key);
  if (encrypted.code !== 0) throw new Error(encrypted.stderr);
  const backup = await pie(['--db', join(dir, 'keyed.db'), 'backup', join(dir, 'encrypted.jsonl')], key);
  if (backup.code !== 0) throw new Error(backup.stderr);
}, 120_000);
afterAll(() => cleanup());

describe('ingest of a backup file', () => {
  it('a plain backup is refused with one sentence pointing at pie restore (exit 3), and no database is made', async () => {
    const file = join(dir, 'plain.jsonl');
    const target = join(dir, 'target.db');
    for (const format of [[], ['--format', 'jsonl']]) {
      const r = await pie(['--db', target, 'ingest', file, ...format]);
      expect(r.code, format.join(' ')).toBe(3);
      expect(r.stderr).toBe(
        `pie: "${file}" is a PIE backup (pie backup), not an export to import; restore it with pie restore (into an empty database, or --force to replace what one holds).\n`,
      );
      expect(r.stdout).toBe('');
    }
    expect(existsSync(target)).toBe(false);
  });

  it('so is an encrypted backup, with or without the key', async () => {
    const file = join(dir, 'encrypted.jsonl');
    expect(readFileSync(file).subarray(0, 8).toString('latin1')).toBe('PIEBAK1\n');
    const target = join(dir, 'target2.db');
    for (const env of [{}, { PIE_DB_KEY: 'k' }]) {
      const r = await pie(['--db', target, 'ingest', file], env);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(
        /^pie: ".*encrypted\.jsonl" is a PIE backup \(pie backup\), not an export to import; restore it with pie restore/,
      );
    }
    expect(existsSync(target)).toBe(false);
  });
});
