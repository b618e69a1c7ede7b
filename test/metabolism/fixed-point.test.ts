import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSample, pieJson, tempDir } from '../helpers/cli.js';
import { snapshot } from '../helpers/db.js';

/**
 * A sleep at a fixed instant reaches its fixed point in one run (issue 15, item 8): after a full sleep at some
 * "now", a second full sleep at the same "now" changes no row (it used to keep changing until the third run:
 * importance after the merges and new links, procedures, and sleep tasks tried again at the same instant).
 */
let dir: string;
let db: string;
let cleanup: () => void;
beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'pie.db');
  await ingestSample(db, ['--tz', 'UTC']);
}, 120_000);
afterAll(() => cleanup());

interface Report {
  journaled: number;
  phases: { name: string; changes: number }[];
  settled: { changes: number } | null;
}

describe('sleep fixed point', () => {
  it('a second full sleep at the same now changes nothing', async () => {
    const first = await pieJson<Report>(['--db', db, '--now', '2025-11-01', 'sleep']);
    expect(first.journaled).toBeGreaterThan(0);
    expect(first.settled?.changes).toBeGreaterThan(0);
    const rowsAfterFirst = snapshot(db, ['maintenance_log', 'journal']);
    const second = await pieJson<Report>(['--db', db, '--now', '2025-11-01', 'sleep']);
    expect(second.journaled).toBe(0);
    expect(second.phases.filter((p) => p.changes > 0)).toEqual([]);
    expect(second.settled?.changes).toBe(0);
    expect(snapshot(db, ['maintenance_log', 'journal'])).toEqual(rowsAfterFirst);
  });
});
