import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, ROOT, SAMPLE, tempDir } from '../helpers/cli.js';

const HOOK = join(ROOT, 'test', 'helpers', 'loaded-modules.mjs');

/** Modules only some commands need: loaded by a command that does not use them, they cost every start. */
const HEAVY = {
  'the MCP SDK': '/node_modules/@modelcontextprotocol/',
  'the HTTP server': '/node_modules/hono/',
  'the PostgreSQL driver': '/node_modules/pg/',
  "js-tiktoken's encoder": '/node_modules/js-tiktoken/dist/lite',
  'the benchmarks': '/src/bench/',
};

/** The URLs of the modules `pie <args>` loads, run from source as a child process; and its result. */
function loadedBy(args: string[], file: string): { urls: string[]; code: number | null; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', HOOK, join(ROOT, 'bin', 'pie.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PIE_TZ: 'UTC', PIE_TEST_LOADED_FILE: file },
    encoding: 'utf8',
  });
  const urls = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return { urls, code: run.status, stderr: run.stderr };
}

const heavyIn = (urls: readonly string[]): string[] =>
  Object.entries(HEAVY).flatMap(([name, part]) => (urls.some((u) => u.includes(part)) ? [name] : []));

describe('what a command loads at start-up', () => {
  const tmp = tempDir('pie-startup-');
  const db = join(tmp.dir, 'pie.db');
  beforeAll(async () => {
    const r = await pie(['--db', db, 'ingest', SAMPLE, '--extractor', 'offline']);
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);
  afterAll(() => tmp.cleanup());

  it('pie --help, pie stats and pie ask --context-only load none of the modules only other commands need', () => {
    const commands = [
      ['--help'],
      ['--db', db, 'stats'],
      ['--db', db, '--now', '2025-11-01', 'ask', 'What is Tidepool?', '--context-only'],
    ];
    for (const [i, args] of commands.entries()) {
      const { urls, code, stderr } = loadedBy(args, join(tmp.dir, `loaded-${i}.txt`));
      expect(code, stderr).toBe(0);
      // The hook sees the modules (so an empty list would not pass for a clean one).
      expect(urls.some((u) => u.includes('/node_modules/commander/'))).toBe(true);
      expect(heavyIn(urls), args.join(' ')).toEqual([]);
    }
  }, 120_000);

  it('pie bench loads the benchmarks when it runs, and still refuses an unknown one in one sentence', () => {
    const { urls, code, stderr } = loadedBy(['bench', 'nonsense'], join(tmp.dir, 'loaded-bench.txt'));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/pie bench "nonsense" is not known; use locomo or longmemeval/);
    expect(heavyIn(urls)).toContain('the benchmarks');
  }, 60_000);
});
