import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pie } from '../helpers/cli.js';

/**
 * Commands that only change what a memory holds (maintenance, forgetting, undoing, re-indexing) must not create a
 * database: a mistyped --db would otherwise leave an empty memory behind and report success on it.
 */
describe('commands that change a memory, on a --db that does not exist', () => {
  let dir: string;
  let db: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pie-absent-'));
    db = join(dir, 'typo.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const commands: [string, string[]][] = [
    ['sleep', ['sleep']],
    ['undo', ['undo', 'run-1']],
    ['undo --force', ['undo', 'run-1', '--force']],
    ['forget', ['forget', '--kind', 'text', 'anything']],
    ['forget --compact', ['forget', '--compact']],
    ['summarize', ['summarize']],
    ['reindex', ['reindex', '--embedder', 'fake:test']],
  ];
  // Adding to a memory (ingest, apply, observe, chat, restore) may start one; these only change what it holds.
  it.each(commands)('%s refuses with one sentence and creates nothing', async (_name, args) => {
    const r = await pie(['--db', db, ...args]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr.trim().split('\n')).toEqual([
      `pie: There is no database at ${db} yet; import something first (pie ingest).`,
    ]);
    expect(existsSync(db)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a KIP query with --read-only or --dry-run answers from an empty memory and creates nothing', async () => {
    for (const flag of ['--read-only', '--dry-run']) {
      const r = await pie(['--db', db, 'kip', 'FIND(?e) WHERE { ?e {type: "Person"} }', flag, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ result: [] });
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
