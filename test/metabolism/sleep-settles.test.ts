import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, pieJson, SAMPLE, tempDir } from '../helpers/cli.js';

interface SleepJson {
  journaled: number;
  phases: { name: string; changes: number }[];
}

/** The sample's sleeps a minute apart, as a wall clock moves between runs of `pie sleep`. */
const at = (minute: number): string => new Date(Date.UTC(2025, 10, 1, 9, minute)).toISOString();

describe('pie sleep reaches a fixed point on a clock that moves', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  beforeAll(async () => {
    dir = tempDir('pie-settle-');
    db = join(dir.dir, 'pie.db');
    expect((await pie(['--db', db, '--tz', 'UTC', 'ingest', SAMPLE])).code).toBe(0);
  });
  afterAll(() => dir.cleanup());

  it('plans what it does, then gives up on the review tasks it cannot finish and stops writing', async () => {
    const changes = (r: SleepJson) => Object.fromEntries(r.phases.map((p) => [p.name, p.changes]));
    const plan = await pieJson<SleepJson>(['--db', db, '--tz', 'UTC', '--now', at(0), 'sleep', '--dry-run']);
    const first = await pieJson<SleepJson>(['--db', db, '--tz', 'UTC', '--now', at(0), 'sleep']);
    // The dry run counts the review task the merge phase would leave (it counted none).
    expect(changes(plan)['merge duplicates']).toBe(changes(first)['merge duplicates']);
    const journaled: number[] = [];
    for (let minute = 1; minute <= 6; minute++) {
      journaled.push((await pieJson<SleepJson>(['--db', db, '--tz', 'UTC', '--now', at(minute), 'sleep'])).journaled);
    }
    // Each open task is tried for three cycles and left for a person (the inbox shows it); its pair is not given a
    // new task the cycle after (it had been, every three cycles, for ever).
    expect(journaled.slice(-2)).toEqual([0, 0]);
  });
});
