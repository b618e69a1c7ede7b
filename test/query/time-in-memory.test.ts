import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { buildQueryContext } from '../../src/query/ask.js';
import { pie, tempDir } from '../helpers/cli.js';

/**
 * Ingestion, the question's time references and the compiled context crossed: a month or day named without a year,
 * asked years after the conversations it means, is read in the memory's year (before, "April 27th" asked in
 * November 2026 was 27 April 2026, after everything the memory holds, and its conversation lost its place).
 */
const NOW = Date.UTC(2026, 10, 27, 12);
let store: WorldStore;
let cleanup: () => void;

beforeAll(async () => {
  const tmp = tempDir('pie-yearless-');
  cleanup = tmp.cleanup;
  const db = join(tmp.dir, 'pie.db');
  const file = join(tmp.dir, 'talk.json');
  const sessions: [string, string][] = [
    ['1:00 pm on 27 April, 2023', 'Today I went for a run in the park for an hour.'],
    ['1:00 pm on 3 May, 2023', 'I cooked a curry for my sister tonight.'],
    ['1:00 pm on 10 March, 2026', 'I started a pottery class this week.'],
  ];
  const conversation: Record<string, unknown> = { speaker_a: 'Frank', speaker_b: 'Ana' };
  sessions.forEach(([when, text], i) => {
    conversation[`session_${i + 1}_date_time`] = when;
    conversation[`session_${i + 1}`] = [
      { speaker: 'Frank', dia_id: `D${i + 1}:1`, text },
      { speaker: 'Ana', dia_id: `D${i + 1}:2`, text: 'That sounds good!' },
    ];
  });
  writeFileSync(file, JSON.stringify([{ sample_id: 'y-1', conversation, qa: [] }]));
  const ingested = await pie(['--db', db, '--now', '2026-11-27', 'ingest', file, '--format', 'locomo'], {
    PIE_TZ: 'UTC',
  });
  if (ingested.code !== 0) throw new Error(ingested.stderr);
  store = await openSqliteStore({ path: db });
}, 60_000);
afterAll(async () => {
  await store.close();
  cleanup();
});

const ask = (question: string) => buildQueryContext({ store, question, now: NOW, tz: 'UTC', format: 'absolute' });
const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

describe('a month or day named without a year', () => {
  it('moves back to the latest year that has a conversation on it, and the context says so', async () => {
    const c = await ask('On April 27th, how long did Frank run in the park?');
    expect(c.plan.timeRanges).toMatchObject([{ start: day(2023, 4, 27), end: day(2023, 4, 28), movedToMemory: true }]);
    expect(c.text).toContain(
      'Time asked about: "April 27th" = 27 April 2023 to 27 April 2023 (no year given: the latest with conversations in the memory).',
    );
    expect(c.text).not.toContain('before the time asked about');
    expect(c.text).toContain('for a run in the park for an hour');
    const month = await ask('What did Frank cook in May?');
    expect(month.plan.timeRanges).toMatchObject([
      { start: day(2023, 5, 1), end: day(2023, 6, 1), movedToMemory: true },
    ]);
  });

  it('stays where now puts it when that holds a conversation, or when no year does', async () => {
    const march = await ask('What class did Frank start in March?');
    expect(march.plan.timeRanges).toEqual([expect.objectContaining({ start: day(2026, 3, 1), end: day(2026, 4, 1) })]);
    expect(march.plan.timeRanges[0]?.movedToMemory).toBeUndefined();
    const june = await ask('What did Frank do on June 5th?');
    expect(june.plan.timeRanges).toEqual([expect.objectContaining({ start: day(2026, 6, 5) })]);
    expect(june.plan.timeRanges[0]?.movedToMemory).toBeUndefined();
  });

  it('a duration question naming a day keeps dates beside the relative times (auto format)', async () => {
    const auto = (question: string) => buildQueryContext({ store, question, now: NOW, tz: 'UTC', format: 'auto' });
    const dated = await auto('On April 27th, how long did Frank run in the park?');
    expect(dated.plan.timeFormat).toBe('hybrid');
    expect(dated.text).toMatch(/27 April 2023 \(about 3\.5 years ago\)/);
    expect((await auto('How long did Frank run in the park?')).plan.timeFormat).toBe('semantic');
  });

  it('a date with its year, or a range a modifier made, is not moved', async () => {
    const dated = await ask('What did Frank do on 27 April 2024?');
    expect(dated.plan.timeRanges).toEqual([expect.objectContaining({ start: day(2024, 4, 27) })]);
    const before = await ask('What did Frank do before April 27th?');
    expect(before.plan.timeRanges[0]?.end).toBe(day(2026, 4, 27));
    expect(before.plan.timeRanges[0]?.movedToMemory).toBeUndefined();
  });
});
