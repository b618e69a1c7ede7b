import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PieError } from '../domain/errors.js';

/** Where the evaluation data lives by default: `$PIE_BENCH_DATA`, else `../shared/data` beside the checkout. */
export function benchDataDir(env: Record<string, string | undefined> = process.env): string {
  return resolve(env.PIE_BENCH_DATA ?? '../shared/data');
}

export const DEFAULT_FILES = {
  locomo: 'locomo/locomo10.json',
  longmemeval: 'longmemeval/longmemeval_s_dev30.json',
  longmemevalOracle: 'longmemeval/longmemeval_oracle.json',
  tot: 'test-of-time/tot_arithmetic_test.json',
} as const;

/** Reads a benchmark file that holds one JSON array; a missing or unreadable file is one actionable PieError. */
export function readJsonArray(path: string, what: string): unknown[] {
  if (!existsSync(path)) {
    throw new PieError(
      'FILE_NOT_FOUND',
      `The ${what} data file ${path} does not exist; pass --data PATH (or set PIE_BENCH_DATA to the folder holding ${what}).`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new PieError('UNREADABLE_INPUT', `The ${what} data file ${path} is not valid JSON (${why}).`);
  }
  if (!Array.isArray(parsed)) {
    throw new PieError('UNKNOWN_FORMAT', `The ${what} data file ${path} is not a JSON array; is it the right file?`);
  }
  return parsed;
}
