import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/serve/cli/run.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SAMPLE = join(ROOT, 'sample', 'chatgpt-export.json');
export const SHARED_DATA = join(ROOT, '..', 'shared', 'data');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `pie` in-process with captured output and a controlled environment (no API keys leak in). */
export async function pie(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: { PIE_TZ: 'UTC', ...env },
    interactive: false,
  });
  return { code, stdout, stderr };
}

/** `pie … --json` parsed. */
export async function pieJson<T = Record<string, unknown>>(
  args: string[],
  env: Record<string, string> = {},
): Promise<T> {
  const r = await pie([...args, '--json'], env);
  if (r.code !== 0) throw new Error(`pie ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/**
 * Ingests the sample export into `db` with the offline rules and no light consolidation (where most tests of a
 * whole world start), `global` options before the command (`--tz`, `--now`); throws with pie's stderr on failure.
 */
export async function ingestSample(db: string, global: readonly string[] = []): Promise<void> {
  const r = await pie(['--db', db, ...global, 'ingest', SAMPLE, '--extractor', 'offline', '--consolidate-every', '0']);
  if (r.code !== 0) throw new Error(`pie ingest of the sample exited ${r.code}: ${r.stderr}`);
}

/** A temporary directory removed by the returned cleanup. */
export function tempDir(prefix = 'pie-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The command line that runs the real CLI from source (through tsx, so no build is needed). */
export const PIE_COMMAND: readonly string[] = [process.execPath, '--import', 'tsx', join(ROOT, 'bin', 'pie.ts')];

/** Spawns the real CLI as a child process (through tsx, so no build is needed). */
export function spawnPie(
  args: string[],
  env: Record<string, string> = {},
  options: { stdin?: boolean } = {},
): ChildProcess {
  const [node = process.execPath, ...script] = PIE_COMMAND;
  return spawn(node, [...script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PIE_TZ: 'UTC', ...env },
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
}

export async function finished(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number>((resolve) =>
    child.on('close', (c, signal) => resolve(c ?? (signal ? 128 : -1))),
  );
  return { code, stdout, stderr };
}

/** Runs the real CLI as a child process with `input` on its stdin (a pipe, as a script would use it). */
export async function pieWithInput(
  args: string[],
  input: string,
  env: Record<string, string> = {},
): Promise<CliResult> {
  const child = spawnPie(args, env, { stdin: true });
  const done = finished(child);
  child.stdin?.end(input);
  return done;
}
