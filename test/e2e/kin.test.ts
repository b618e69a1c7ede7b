import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';

/**
 * A user's people across conversations, crossing import, offline extraction, the relationship planner and the
 * world at a date: a girlfriend named in March and broken up with in May is an ex after May and still a girlfriend
 * in a snapshot of April; a brother's home is his, not the user's; a daughter born in June is family.
 */
describe("the user's people change over conversations", () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const cli = (args: string[]) => ['--db', db, '--now', '2024-08-01', ...args];
  const env = { PIE_TZ: 'UTC' };

  beforeAll(async () => {
    dir = tempDir('pie-kin-');
    db = join(dir.dir, 'pie.db');
    const file = join(dir.dir, 'chats.jsonl');
    const line = (conversation: string, role: string, text: string, time: string) =>
      JSON.stringify({ conversation, role, text, time });
    writeFileSync(
      file,
      [
        line(
          'c1',
          'user',
          'My girlfriend Sarah and I went hiking in Yosemite. My brother Dan lives in Chicago.',
          '2024-03-02T10:00:00Z',
        ),
        line('c1', 'assistant', 'Sounds lovely!', '2024-03-02T10:00:30Z'),
        line('c2', 'user', 'I broke up with my girlfriend Sarah last week. It was hard.', '2024-05-10T10:00:00Z'),
        line('c3', 'user', 'Big news: we just had a baby girl named Lily on Monday!', '2024-06-12T10:00:00Z'),
      ].join('\n'),
    );
    const ingested = await pie(cli(['ingest', file, '--extractor', 'offline']), env);
    expect(ingested.code, ingested.stderr).toBe(0);
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('Sarah is an ex now, with the relationship ended on the week of the breakup', async () => {
    const timeline = await pie(cli(['timeline', 'Sarah']), env);
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout).toContain('Current state: relation: ex-girlfriend.');
    expect(timeline.stdout).toContain('Broke up with User [relation: girlfriend → ex-girlfriend]');
    expect(timeline.stdout).toMatch(/User KNOWS Sarah \(relation: girlfriend\), 2 March 2024 to \d+ May 2024/);
  });

  it('a snapshot of April still has her as the girlfriend; one of now does not', async () => {
    const april = await pie(cli(['snapshot', '--at', '2024-04-01', '--type', 'person']), env);
    expect(april.code, april.stderr).toBe(0);
    expect(april.stdout).toContain('KNOWS Sarah (relation: girlfriend)');
    const now = await pie(cli(['snapshot', '--type', 'person']), env);
    expect(now.code, now.stderr).toBe(0);
    expect(now.stdout).not.toContain('KNOWS Sarah');
    expect(now.stdout).toContain('Sarah (person): relation: ex-girlfriend');
  });

  it("the brother's home is his, and the daughter is family", async () => {
    const dan = await pie(cli(['entity', 'Dan']), env);
    expect(dan.code, dan.stderr).toBe(0);
    expect(dan.stdout).toContain('LIVES_IN → Chicago');
    const user = await pie(cli(['entity', 'User']), env);
    expect(user.stdout).not.toContain('LIVES_IN → Chicago');
    expect(user.stdout).toContain('← FAMILY_OF Lily (by 10 June 2024)');
    const ctx = await pie(cli(['ask', '--context-only', 'Where does my brother live?']), env);
    expect(ctx.code, ctx.stderr).toBe(0);
    expect(ctx.stdout).toContain('Dan LIVES_IN Chicago');
  });
});
