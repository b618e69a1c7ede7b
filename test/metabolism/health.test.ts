import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pie, pieJson, tempDir } from '../helpers/cli.js';
import { applyPhasesWorld, PHASES_NOW } from './phases-world.js';

interface Health {
  health: {
    facts: number;
    meanConfidence: number;
    overdueCommitments: number;
    pendingTasks: number;
    warnings: string[];
  };
}

describe('pie health against the sleep spec targets', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  beforeEach(async () => {
    dir = tempDir('pie-health-');
    db = await applyPhasesWorld(dir.dir);
  });
  afterEach(() => dir.cleanup());

  it('counts open commitments past due, current facts with their mean confidence, and waiting sleep tasks', async () => {
    const before = await pieJson<Health>(['--db', db, 'health', '--now', '2024-01-01']);
    expect(before.health.overdueCommitments).toBe(0); // nothing is due yet in 2024-01
    const r = await pieJson<Health>(['--db', db, 'health', '--now', PHASES_NOW]);
    // the passport, the grant application (kept, but only the sweep records that) and the Q3 report are open and
    // past due; the offsite is not due yet
    expect(r.health.overdueCommitments).toBe(3);
    expect(r.health.warnings).toContain(
      `${r.health.overdueCommitments} open commitments are past due; pie sleep lists them (commitments sweep).`,
    );
    expect(r.health.facts).toBeGreaterThan(0);
    expect(r.health.meanConfidence).toBeGreaterThan(0);
    expect(r.health.meanConfidence).toBeLessThanOrEqual(1);
    expect(r.health.pendingTasks).toBeGreaterThan(0);
    const text = (await pie(['--db', db, 'health', '--now', PHASES_NOW])).stdout;
    expect(text).toMatch(/\d+ current facts, mean confidence 0\.\d\d; \d+ open commitments past due\./);
  });

  it('after a full sleep only the commitment still owed is overdue (one expired, one fulfilled)', async () => {
    expect((await pie(['--db', db, 'sleep', '--now', PHASES_NOW])).code).toBe(0);
    const after = await pieJson<Health>(['--db', db, 'health', '--now', PHASES_NOW]);
    expect(after.health.overdueCommitments).toBe(1);
  });
});
