import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finished, pie, ROOT, tempDir } from '../helpers/cli.js';

/**
 * Issue 15, item 10 and issue 18: a database URL is never taken for a file name. A postgres:// URL selects the
 * PostgreSQL store (an unreachable server is one sentence, credentials stripped); other schemes are refused.
 */
let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(() => cleanup());

describe('--db with a URL', () => {
  it('an unreachable PostgreSQL server is one sentence without the password, and creates nothing', async () => {
    const r = await pie(['--db', 'postgres://user:s3cret@127.0.0.1:1/pie', 'stats'], { PIE_HOME: join(dir, 'home') });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Cannot reach the PostgreSQL server postgres:\/\/\*\*\*@127\.0\.0\.1:1\/pie/);
    expect(r.stderr).not.toContain('s3cret');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(ROOT, 'postgres:'))).toBe(false);
    expect(existsSync(join(dir, 'home'))).toBe(false);
  });

  it('refuses another database URL in one sentence', async () => {
    const r = await pie(['--db', 'mysql://user@host:3306/pie', 'stats'], { PIE_HOME: join(dir, 'home') });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--db "mysql:\/\/\*\*\*@host:3306\/pie" is a mysql URL/);
    expect(existsSync(join(ROOT, 'mysql:'))).toBe(false);
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
