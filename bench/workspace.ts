import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SPEC_SCALE, writeSyntheticExport } from './generate/chatgpt-export.js';

/** Scratch space for generated data and databases (git-ignored). */
export const BENCH_TMP = fileURLToPath(new URL('../.bench-tmp/', import.meta.url));

/** A path for a database under .bench-tmp/, with any earlier file of that name (and its WAL) removed. */
export function freshDb(input: { name: string }): string {
  mkdirSync(BENCH_TMP, { recursive: true });
  const db = join(BENCH_TMP, `${input.name}.db`);
  removeDb({ db });
  return db;
}

export function removeDb(input: { db: string }): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(input.db + suffix, { force: true });
}

/** The spec-scale synthetic ChatGPT export, generated once into .bench-tmp/ (deterministic: seeded). */
export async function ensureSpecExport(): Promise<{ path: string; bytes: number }> {
  mkdirSync(BENCH_TMP, { recursive: true });
  const path = join(BENCH_TMP, 'spec-scale-conversations.json');
  if (!existsSync(path)) {
    console.log('Generating the spec-scale synthetic export…');
    // Written under a temporary name first, so an interrupted run never leaves a truncated export behind.
    const partial = `${path}.partial`;
    const written = await writeSyntheticExport({ path: partial, shape: SPEC_SCALE });
    renameSync(partial, path);
    console.log(`  ${written.conversations} conversations, ${written.messages} messages, ${written.bytes} bytes`);
  }
  return { path, bytes: statSync(path).size };
}

/**
 * Environment for the child: no model configured (empty counts as unset), so `pie` never reaches a real provider and
 * `--dry-run` prices its default model, openai:gpt-5-mini.
 */
export const NO_MODEL_ENV: Record<string, string> = {
  PIE_LLM: '',
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  PIE_PRICES: '',
};
