import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finished, pie, ROOT, tempDir } from '../helpers/cli.js';

/** Issue 15, item 10: a database URL is refused, not taken for a file name; pie bench outside git stays quiet. */
let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(() => cleanup());

describe('--db with a URL', () => {
  it('is refused in one sentence and creates nothing', async () => {
    const r = await pie(['--db', 'postgres://user@host:5432/pie', 'stats'], { PIE_HOME: join(dir, 'home') });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--db "postgres:\/\/\*\*\*@host:5432\/pie" is a postgres URL, but PIE keeps its memory in a SQLite file/,
    );
    expect(existsSync(join(ROOT, 'postgres:'))).toBe(false);
    expect(existsSync(join(dir, 'home'))).toBe(false);
  });
});

describe('pie bench outside a git checkout', () => {
  it('says nothing about git on stderr', async () => {
    const fixture = fileURLToPath(new URL('../bench/fixtures/locomo-mini.json', import.meta.url));
    const child = spawn(
      process.execPath,
      [
        '--import',
        join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs'),
        join(ROOT, 'bin', 'pie.ts'),
        'bench',
        'locomo',
        '--data',
        fixture,
        '--k',
        '1',
      ],
      {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', HOME: dir, PIE_TZ: 'UTC', PIE_DB: join(dir, 'b.db') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const r = await finished(child);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/fatal|not a git repository/);
    expect(readdirSync(dir)).not.toContain('postgres:');
  }, 60_000);
});
