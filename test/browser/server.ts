import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { finished, pie, ROOT, SAMPLE, spawnPie, tempDir } from '../helpers/cli.js';

export const CHROMIUM = process.env.PIE_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Containers often have a small /dev/shm; Chromium then crashes without this.
  '--disable-dev-shm-usage',
];
export const NOW = '2025-11-01';
export const FAKE_LLM = join(ROOT, 'test', 'browser', 'fake-llm.json');
const WEB_OUT = join(ROOT, 'dist', 'web');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** The built UI (npm run build makes it); built here when missing or older than web/. */
export async function ensureWebBuilt(): Promise<void> {
  const index = join(WEB_OUT, 'index.html');
  const sources = Math.max(newestMtime(join(ROOT, 'web')), statSync(join(ROOT, 'vite.config.ts')).mtimeMs);
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  const { build } = await import('vite');
  await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
}

export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM} (Debian: apt-get install -y chromium; or set PIE_CHROMIUM to its path).`,
    );
  }
}

export interface SampleServer {
  url: string;
  db: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The bundled sample ingested offline into a fresh database, served by the real `pie serve` with the fake model.
 * `seed` adds to the database (through the store) before the server opens it.
 */
export async function startSampleServer(options: { seed?: (db: string) => Promise<void> } = {}): Promise<SampleServer> {
  const { dir, cleanup } = tempDir('pie-browser-');
  const db = join(dir, 'pie.db');
  const G = ['--db', db, '--tz', 'UTC', '--now', NOW];
  const ingested = await pie([...G, 'ingest', SAMPLE, '--extractor', 'offline']);
  if (ingested.code !== 0) throw new Error(`ingesting the sample failed: ${ingested.stderr}`);
  await options.seed?.(db);
  return servePie({ args: [...G, 'serve', '--port', '0', '--llm', `fake:${FAKE_LLM}`], db, cleanup });
}

/** The real `pie serve` with `args` (which name `db`), on a free port; `cleanup` runs after it stopped. */
export async function servePie(input: { args: string[]; db: string; cleanup?: () => void }): Promise<SampleServer> {
  const { db } = input;
  const child = spawnPie(input.args);
  const result = finished(child);
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`pie serve printed no URL: ${seen}`)), 60_000);
    child.stderr?.on('data', (d: Buffer) => {
      seen += d.toString();
      const match = /serving (http:\/\/\S+\/)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`pie serve exited: ${seen}`));
    });
  });
  return {
    url,
    db,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      const r = await result;
      input.cleanup?.();
      if (r.code !== 0) throw new Error(`pie serve exited ${r.code}: ${r.stderr}`);
    },
  };
}
