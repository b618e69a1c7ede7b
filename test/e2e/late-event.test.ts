import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';

/**
 * Three features crossed on one event told late: the offline extractor dates "yesterday" a day before the session,
 * after the speaker's news of the session day was recorded; the temporal rules keep the news current; and the
 * timeline, the snapshot of the day before and the compiled context each show the late event (before 2026-11-27 it
 * was a closed fact with no transition, which none of them showed).
 */
describe('an event told after later news', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const cli = (args: string[]) => ['--db', db, '--now', '2023-06-01', ...args];

  beforeAll(async () => {
    dir = tempDir('pie-late-event-');
    db = join(dir.dir, 'pie.db');
    const file = join(dir.dir, 'late.json');
    const conversation = {
      speaker_a: 'John',
      speaker_b: 'Maria',
      session_1_date_time: '1:00 pm on 1 May, 2023',
      session_1: [
        { speaker: 'John', dia_id: 'D1:1', text: 'Something massive happened. I got promoted at work!' },
        { speaker: 'Maria', dia_id: 'D1:2', text: 'Congrats John! What else is new?' },
        { speaker: 'John', dia_id: 'D1:3', text: 'I made an apple pie for the kids yesterday too!' },
      ],
    };
    writeFileSync(file, JSON.stringify([{ sample_id: 'late-1', conversation, qa: [] }]));
    const ingested = await pie(cli(['ingest', file, '--format', 'locomo', '--extractor', 'offline']), {
      PIE_TZ: 'UTC',
    });
    expect(ingested.code, ingested.stderr).toBe(0);
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('keeps the news current and the late event in the history at its own day', async () => {
    const timeline = await pie(cli(['timeline', 'John']), { PIE_TZ: 'UTC' });
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout).toContain('Current state: latest_event: got promoted at work.');
    const pieLine = timeline.stdout.search(/30 April 2023[^\n]*: Made an apple pie for the kids/);
    const news = timeline.stdout.search(/1 May 2023[^\n]*: Got promoted at work/);
    expect(pieLine).toBeGreaterThan(0);
    expect(news).toBeGreaterThan(pieLine);
  });

  it('the snapshot of the day before shows the late event as the state then', async () => {
    const snap = await pie(cli(['snapshot', '--at', '2023-04-30']), { PIE_TZ: 'UTC' });
    expect(snap.code, snap.stderr).toBe(0);
    expect(snap.stdout).toContain('John (person): latest_event: made an apple pie for the kids');
    expect(snap.stdout).not.toContain('promoted');
  });

  it('the context shows it among the changes, without a bracket repeating it', async () => {
    const ctx = await pie(cli(['ask', '--context-only', 'What did John make for his kids?']), { PIE_TZ: 'UTC' });
    expect(ctx.code, ctx.stderr).toBe(0);
    const world = ctx.stdout.slice(0, ctx.stdout.indexOf('From the conversations'));
    expect(world).toMatch(
      /30 April 2023[^\n]*: Made an apple pie for the kids too \(yesterday \[30 April 2023\]\) \[1\]/,
    );
    expect(world).not.toContain('[latest_event:');
  });
});
