import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';

/**
 * Times said in a chat, crossed through ingestion, the timeline, a snapshot and the compiled context: a day said
 * without its year ("on February 5th") dates the event on that day, a season named from the day it was said ("last
 * summer") at its middle, a run of days ("from the 20th to the 27th of January") on its first, "half a year ago" six
 * months back, a month written with its year ("in October 2022") at its middle, and a weekday in a plan ("I'm
 * flying to Rome on Friday") is the coming one, so it dates no event in the past. The context writes each resolved
 * beside the words; a brand before a thing one has is no person.
 */
describe('times said in a chat', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const cli = (args: string[]) => ['--db', db, '--now', '2023-07-01', ...args];

  beforeAll(async () => {
    dir = tempDir('pie-said-times-');
    db = join(dir.dir, 'pie.db');
    const file = join(dir.dir, 'times.json');
    const conversation = {
      speaker_a: 'Tim',
      speaker_b: 'John',
      // Wednesday 15 March 2023.
      session_1_date_time: '1:00 pm on 15 March, 2023',
      session_1: [
        { speaker: 'Tim', dia_id: 'D1:1', text: 'I bought a vintage film camera on February 5th.' },
        { speaker: 'John', dia_id: 'D1:2', text: 'Nice! Does it work?' },
        { speaker: 'Tim', dia_id: 'D1:3', text: 'I took my first roll to Lake Tahoe last summer with the old one.' },
        { speaker: 'Tim', dia_id: 'D1:5', text: "I'm flying to Rome on Friday to shoot the Colosseum." },
        { speaker: 'John', dia_id: 'D1:6', text: 'I moved to Denver half a year ago.' },
        {
          speaker: 'Tim',
          dia_id: 'D1:7',
          text: 'We stayed at the Grand Floridian from the 20th to the 27th of January.',
        },
        { speaker: 'Tim', dia_id: 'D1:9', text: "I've been really happy with my Pearl Izumi cycling gloves." },
        { speaker: 'John', dia_id: 'D1:10', text: 'I ran my first marathon in October 2022.' },
      ],
    };
    writeFileSync(file, JSON.stringify([{ sample_id: 'times-1', conversation, qa: [] }]));
    const ingested = await pie(cli(['ingest', file, '--format', 'locomo', '--extractor', 'offline']), {
      PIE_TZ: 'UTC',
    });
    expect(ingested.code, ingested.stderr).toBe(0);
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('the timeline dates each event when it happened, not when it was told', async () => {
    const timeline = await pie(cli(['timeline', 'Tim']), { PIE_TZ: 'UTC' });
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout).toMatch(/5 February 2023[^\n]*Bought a vintage film camera/);
    expect(timeline.stdout).toMatch(/July 2022[^\n]*Took my first roll to Lake Tahoe/);
    // A plan is no event of a past Friday (10 March 2023).
    expect(timeline.stdout).not.toMatch(/10 March 2023[^\n]*Rome/);
    // A run of days dates the stay on its first; "half a year ago" is six months back, not a year.
    expect(timeline.stdout).toMatch(/20 January 2023[^\n]*Stayed at the Grand Floridian/);
    const john = await pie(cli(['timeline', 'John']), { PIE_TZ: 'UTC' });
    expect(john.code, john.stderr).toBe(0);
    expect(john.stdout).toMatch(/September 2022[^\n]*Moved to Denver/);
    // A month written with its year is that month (its middle), not the day it was told.
    expect(john.stdout).toMatch(/16 October 2022[^\n]*Ran my first marathon \(in October 2022\)/);
  });

  it('a brand between "my" and a thing is no person', async () => {
    const people = await pie(cli(['--json', 'entities', '--type', 'person']), { PIE_TZ: 'UTC' });
    expect(people.code, people.stderr).toBe(0);
    expect(people.stdout).toContain('Tim');
    expect(people.stdout).not.toContain('Pearl Izumi');
  });

  it('a snapshot of a day before the telling already holds the camera', async () => {
    const snap = await pie(cli(['snapshot', '--at', '2023-02-20']), { PIE_TZ: 'UTC' });
    expect(snap.code, snap.stderr).toBe(0);
    expect(snap.stdout).toContain('bought a vintage film camera');
    const before = await pie(cli(['snapshot', '--at', '2023-02-01']), { PIE_TZ: 'UTC' });
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).not.toContain('vintage film camera');
  });

  it('the context writes each time resolved beside the words', async () => {
    const ctx = await pie(
      cli(['ask', '--context-only', '--context-tokens', '4000', 'What did Tim do with his camera?']),
      {
        PIE_TZ: 'UTC',
      },
    );
    expect(ctx.code, ctx.stderr).toBe(0);
    expect(ctx.stdout).toContain('on February 5th [5 February 2023]');
    expect(ctx.stdout).toContain('last summer [the summer of 2022]');
    expect(ctx.stdout).toContain('on Friday [17 March 2023]');
    expect(ctx.stdout).toContain('from the 20th to the 27th of January [20–27 January 2023]');
  });
});
