import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityNow } from '../../src/metabolism/tiers.js';
import { ingestSample, pieJson, tempDir } from '../helpers/cli.js';

/**
 * Decay and tiers are measured against the memory's own activity (issue 15, item 9): the sample's last conversation
 * is from 2025; a sleep a year later must not archive more than a sleep the day after that conversation.
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
  phases: { name: string; details?: { moves?: Record<string, number> } }[];
}

const moves = (r: Report) => r.phases.find((p) => p.name === 'tiers')?.details?.moves ?? {};

describe('the memory clock', () => {
  it('a sleep a year after the last conversation changes the same tiers as one the day after it', async () => {
    const { lastEpisodeAt: last } = await pieJson<{ lastEpisodeAt: number }>(['--db', db, 'stats']);
    expect(Number.isFinite(last)).toBe(true);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const soon = await pieJson<Report>(['--db', db, '--now', day(last + 86_400_000), 'sleep', '--dry-run']);
    const later = await pieJson<Report>(['--db', db, '--now', day(last + 366 * 86_400_000), 'sleep', '--dry-run']);
    expect(moves(later)).toEqual(moves(soon));
    expect(moves(later)['active→archived'] ?? 0).toBeLessThan(10);
  });

  it.each([
    [{ now: 100, latestEpisodeAt: 40 }, 40],
    [{ now: 100, latestEpisodeAt: 140 }, 100],
    [{ now: 100, latestEpisodeAt: null }, 100],
  ])('activityNow(%j) = %i', (input, expected) => {
    expect(activityNow(input)).toBe(expected);
  });
});
