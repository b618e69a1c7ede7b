import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';

/**
 * A favourite and a count that change, crossed through four features: the offline extractor reads "X is my
 * favorite book" and "I'm now at 600 followers" as the speaker's state; the temporal rules close the old value when
 * a new one of the same kind is told; the timeline and the snapshot of a day between show each at its time; the
 * compiled context states the current one. A kinship that would change ("my sister Emma", later "my best friend
 * Emma") is flagged as a contradiction instead; the favourite and the count are not.
 */
describe('a favourite and a count that change', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const cli = (args: string[]) => ['--db', db, '--now', '2023-07-01', ...args];

  beforeAll(async () => {
    dir = tempDir('pie-favorite-');
    db = join(dir.dir, 'pie.db');
    const file = join(dir.dir, 'favorites.json');
    const conversation = {
      speaker_a: 'Tim',
      speaker_b: 'John',
      session_1_date_time: '1:00 pm on 1 May, 2023',
      session_1: [
        { speaker: 'Tim', dia_id: 'D1:1', text: 'I reread the whole series again. Harry Potter is my favorite book.' },
        { speaker: 'Tim', dia_id: 'D1:3', text: 'Also, my book blog just reached 500 followers!' },
        { speaker: 'Tim', dia_id: 'D1:5', text: 'My sister Emma is visiting this weekend.' },
        { speaker: 'John', dia_id: 'D1:2', text: 'Nice! Mine is The Hobbit.' },
      ],
      session_2_date_time: '3:00 pm on 10 June, 2023',
      session_2: [
        { speaker: 'Tim', dia_id: 'D2:1', text: 'Guess what, The Name of the Wind is my favorite book now.' },
        { speaker: 'Tim', dia_id: 'D2:3', text: "I just checked and I'm now at 600 followers." },
        { speaker: 'Tim', dia_id: 'D2:5', text: 'My best friend Emma got me tickets to the game.' },
        { speaker: 'John', dia_id: 'D2:2', text: 'Big change! Why?' },
      ],
    };
    writeFileSync(file, JSON.stringify([{ sample_id: 'fav-1', conversation, qa: [] }]));
    const ingested = await pie(cli(['ingest', file, '--format', 'locomo', '--extractor', 'offline']), {
      PIE_TZ: 'UTC',
    });
    expect(ingested.code, ingested.stderr).toBe(0);
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('the timeline keeps the new favourite current and the old one in its history', async () => {
    const timeline = await pie(cli(['timeline', 'Tim']), { PIE_TZ: 'UTC' });
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout).toMatch(/Current state:[^\n]*favorite_book: The Name of the Wind/);
    const before = timeline.stdout.search(/1 May 2023[^\n]*Favorite book: Harry Potter/);
    const after = timeline.stdout.search(/10 June 2023[^\n]*Favorite book: The Name of the Wind/);
    expect(before).toBeGreaterThan(0);
    expect(after).toBeGreaterThan(before);
    expect(timeline.stdout).toMatch(/Current state:[^\n]*followers: 600/);
    expect(timeline.stdout).toMatch(/10 June 2023[^\n]*Followers: 600 \[followers: 500 → 600\]/);
  });

  it('a snapshot of a day between the two shows the favourite then', async () => {
    const snap = await pie(cli(['snapshot', '--at', '2023-05-20']), { PIE_TZ: 'UTC' });
    expect(snap.code, snap.stderr).toBe(0);
    expect(snap.stdout).toContain('favorite_book: Harry Potter');
    expect(snap.stdout).toContain('followers: 500');
    expect(snap.stdout).not.toContain('The Name of the Wind');
    expect(snap.stdout).not.toContain('600');
  });

  it("the context states the current favourite, not the other speaker's", async () => {
    const ctx = await pie(cli(['ask', '--context-only', "What is Tim's favorite book?"]), { PIE_TZ: 'UTC' });
    expect(ctx.code, ctx.stderr).toBe(0);
    const world = ctx.stdout.slice(0, ctx.stdout.indexOf('From the conversations'));
    expect(world).toMatch(
      /Tim \(person[^\n]*\n(?:[^\n]*\n)*?\s+Current state:[^\n]*favorite_book: The Name of the Wind/,
    );
    expect(world).not.toContain('favorite_book: The Hobbit');
    const count = await pie(cli(['ask', '--context-only', 'How many followers does Tim have now?']), { PIE_TZ: 'UTC' });
    expect(count.code, count.stderr).toBe(0);
    expect(count.stdout.slice(0, count.stdout.indexOf('From the conversations'))).toMatch(
      /Current state:[^\n]*followers: 600/,
    );
  });

  it('a kinship that would change is an unresolved contradiction; the favourite and the count are updates', async () => {
    const listed = await pie(cli(['contradictions']), { PIE_TZ: 'UTC' });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('Emma');
    expect(listed.stdout).toContain('relation: sister → best friend');
    // The summary is the change: no bracket repeating it.
    expect(listed.stdout).not.toContain('[relation: sister → best friend]');
    expect(listed.stdout).not.toContain('followers');
    expect(listed.stdout).not.toContain('favorite');
  });
});
