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
  /** User + system CPU time of the `pie` process. */
  cpuMs: number;
}

interface Usage {
  maxRssKb: number;
  userMicros: number;
  systemMicros: number;
}

/** Runs the built `pie` CLI as a child process and measures its wall time, peak RSS and CPU time. */
export async function runPie(input: { args: readonly string[]; env?: Record<string, string> }): Promise<PieRun> {
  const dir = mkdtempSync(join(tmpdir(), 'pie-bench-usage-'));
  const usageFile = join(dir, 'usage.json');
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', RSS_HOOK, PIE_BIN, ...input.args], {
    env: { ...process.env, ...input.env, PIE_BENCH_USAGE_FILE: usageFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  const wallMs = performance.now() - started;
  try {
    const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as Usage;
    return {
      code,
      stdout,
      stderr,
      wallMs,
      maxRssMb: usage.maxRssKb / 1024,
      cpuMs: (usage.userMicros + usage.systemMicros) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `pie` and fails loudly (with its stderr) unless it exits with 0. */
export async function runPieOk(input: { args: readonly string[]; env?: Record<string, string> }): Promise<PieRun> {
  const run = await runPie(input);
  if (run.code !== 0) throw new Error(`pie ${input.args.join(' ')} exited with ${run.code}:\n${run.stderr}`);
  return run;
}
