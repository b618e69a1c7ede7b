import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PIE_BIN = fileURLToPath(new URL('../dist/bin/pie.js', import.meta.url));
const RSS_HOOK = fileURLToPath(new URL('./rss-hook.mjs', import.meta.url));

export interface PieRun {
  code: number;
  stdout: string;
  stderr: string;
  wallMs: number;
  maxRssMb: number;
}

/** Runs the built `pie` CLI as a child process and measures its wall time and peak RSS. */
export async function runPie(args: readonly string[], env: Record<string, string> = {}): Promise<PieRun> {
  const dir = mkdtempSync(join(tmpdir(), 'pie-bench-usage-'));
  const usageFile = join(dir, 'usage.json');
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', RSS_HOOK, PIE_BIN, ...args], {
    env: { ...process.env, ...env, PIE_BENCH_USAGE_FILE: usageFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  const wallMs = performance.now() - started;
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { maxRssKb: number };
  rmSync(dir, { recursive: true, force: true });
  return { code, stdout, stderr, wallMs, maxRssMb: usage.maxRssKb / 1024 };
}
