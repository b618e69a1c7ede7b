import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';

interface Snapshot {
  entities: { name: string; state: Record<string, unknown> }[];
}

/**
 * A plan is no event: Gina says in March that she is opening her store next month (one import run), and in April
 * that she opened it last week (a second run, another process). The plan is her `plan` from the day she said it, with
 * the month it is for; the opening is her event, on its own day. A snapshot between the two has the plan and no
 * opening; one before has neither; the context of a question about it shows both.
 */
describe('a plan, then what happened', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const cli = (args: string[]) => ['--db', db, '--now', '2023-07-01', ...args];
  const env = { PIE_TZ: 'UTC' };

  const ingest = async (id: string, date: string, turns: string[]) => {
    const conversation = {
      speaker_a: 'Gina',
      speaker_b: 'Jon',
      session_1_date_time: date,
      session_1: turns.map((text, j) => ({ speaker: j % 2 === 0 ? 'Gina' : 'Jon', dia_id: `D1:${j + 1}`, text })),
    };
    const file = join(dir.dir, `${id}.json`);
    writeFileSync(file, JSON.stringify([{ sample_id: id, conversation, qa: [] }]));
    const ingested = await pie(cli(['ingest', file, '--format', 'locomo', '--extractor', 'offline']), env);
    expect(ingested.code, ingested.stderr).toBe(0);
  };

  const stateAt = async (day: string): Promise<Record<string, unknown> | undefined> => {
    const shown = await pie(cli(['--json', 'snapshot', '--at', day]), env);
    expect(shown.code, shown.stderr).toBe(0);
    return (JSON.parse(shown.stdout) as Snapshot).entities.find((e) => e.name === 'Gina')?.state;
  };

  beforeAll(async () => {
    dir = tempDir('pie-plans-');
    db = join(dir.dir, 'pie.db');
    await ingest('g-1', '1:00 pm on 15 March, 2023', [
      "I'm opening my own store next month. So excited!",
      'Great news!',
    ]);
    await ingest('g-2', '2:00 pm on 20 April, 2023', ['I opened my own store last week!', 'Congrats!']);
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('keeps the plan from the day it was said and the opening from its own day', async () => {
    expect(await stateAt('2023-03-10')).toBeUndefined();
    expect(await stateAt('2023-03-20')).toEqual({ plan: 'opening my own store (April 2023)' });
    expect(await stateAt('2023-06-01')).toEqual({
      plan: 'opening my own store (April 2023)',
      latest_event: 'opened my own store',
    });
    const timeline = await pie(cli(['timeline', 'Gina']), env);
    expect(timeline.code, timeline.stderr).toBe(0);
    // The plan's line says what and when once, with no bracket repeating the state.
    expect(timeline.stdout).toMatch(/15 March 2023[^\n]*: Plan: opening my own store \(next month \[April 2023\]\)\n/);
    expect(timeline.stdout).toMatch(/13 April 2023[^\n]*: Opened my own store \(last week/);
  });

  it('shows the plan and what happened in the context of a question about it', async () => {
    const asked = await pie(cli(['ask', '--context-only', 'When was Gina going to open her store?']), env);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toContain('plan: opening my own store (April 2023)');
    expect(asked.stdout).toContain('Opened my own store (last week');
  });
});

/**
 * Import order crossed with plans: a conversation from February, imported after the March one, holds an older plan.
 * It was still made then: the timeline and a snapshot of February show it, and March's plan stays current (before
 * 2026-11-28 an older plan arriving late was only a closed fact, which neither showed).
 */
describe('a plan from an older conversation imported later', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const cli = (args: string[]) => ['--db', db, '--now', '2023-07-01', ...args];
  const env = { PIE_TZ: 'UTC' };

  beforeAll(async () => {
    dir = tempDir('pie-late-plan-');
    db = join(dir.dir, 'pie.db');
    for (const [id, date, text] of [
      ['g-3', '1:00 pm on 15 March, 2023', "I'm opening my own store next month. So excited!"],
      ['g-2', '1:00 pm on 1 February, 2023', "I'm taking a pottery class next week."],
    ] as const) {
      const conversation = {
        speaker_a: 'Gina',
        speaker_b: 'Jon',
        session_1_date_time: date,
        session_1: [
          { speaker: 'Gina', dia_id: 'D1:1', text },
          { speaker: 'Jon', dia_id: 'D1:2', text: 'Nice!' },
        ],
      };
      const file = join(dir.dir, `${id}.json`);
      writeFileSync(file, JSON.stringify([{ sample_id: id, conversation, qa: [] }]));
      const ingested = await pie(cli(['ingest', file, '--format', 'locomo', '--extractor', 'offline']), env);
      expect(ingested.code, ingested.stderr).toBe(0);
    }
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('keeps the older plan in the history and the later one current', async () => {
    const timeline = await pie(cli(['timeline', 'Gina']), env);
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout).toMatch(/1 February 2023[^\n]*: Plan: taking a pottery class \(next week/);
    expect(timeline.stdout).toContain('Current state: plan: opening my own store (April 2023).');
    const state = async (day: string) => {
      const shown = await pie(cli(['--json', 'snapshot', '--at', day]), env);
      expect(shown.code, shown.stderr).toBe(0);
      return (JSON.parse(shown.stdout) as Snapshot).entities.find((e) => e.name === 'Gina')?.state;
    };
    expect((await state('2023-02-05'))?.plan).toMatch(/^taking a pottery class \(/);
    expect((await state('2023-06-01'))?.plan).toBe('opening my own store (April 2023)');
  });
});
