import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSample, pie, pieJson, tempDir } from '../helpers/cli.js';
import { snapshot } from '../helpers/db.js';

/**
 * Undo follows the order runs were recorded, not the clock each was given (issue 15, item 4): a sleep with --now in
 * the past, after a sleep at a later "now", is the latest run and can be undone; the earlier one only after it.
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

describe('undo and the configured clock', () => {
  it('a run given an earlier now than the run before it is undone first, then the earlier one', async () => {
    const before = snapshot(db, ['maintenance_log', 'journal']);
    const late = await pieJson<{ runId: string }>(['--db', db, '--now', '2026-06-01', 'sleep', '--scope', 'quick']);
    const early = await pieJson<{ runId: string }>(['--db', db, '--now', '2025-11-01', 'sleep', '--scope', 'quick']);
    const refused = await pie(['--db', db, 'undo', late.runId]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`Run ${early.runId} ran after ${late.runId}`);
    expect((await pie(['--db', db, 'undo', early.runId])).code).toBe(0);
    expect((await pie(['--db', db, 'undo', late.runId])).code).toBe(0);
    expect(snapshot(db, ['maintenance_log', 'journal'])).toEqual(before);
  });

  it('an unknown run id once every run is undone says so, not that no run is recorded', async () => {
    const r = await pie(['--db', db, 'undo', 'sleep-nope']);
    expect(r.code).toBe(4);
    expect(r.stderr).not.toContain('No maintenance runs are recorded yet');
    expect(r.stderr).toMatch(
      /No maintenance run "sleep-nope"\. Every recorded run is undone already \(the latest: sleep-/,
    );
  });
});
