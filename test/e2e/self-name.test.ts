import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';

/**
 * A ChatGPT-style log of an unnamed user, crossing import, offline extraction, name resolution and the compiled
 * context: the user's "Hi, my name is Sam" makes Sam the user (not a second person), so a later question about Sam
 * reaches the user's own dog; a cover letter the user asks to have proofread adds no person and no event.
 */
describe("an unnamed user's own name, and a text they ask to have worked on", () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const cli = (args: string[]) => ['--db', db, '--now', '2024-05-01', ...args];

  beforeAll(async () => {
    dir = tempDir('pie-self-name-');
    db = join(dir.dir, 'pie.db');
    const file = join(dir.dir, 'chats.jsonl');
    const line = (conversation: string, role: string, text: string, time: string) =>
      JSON.stringify({ conversation, role, text, time });
    writeFileSync(
      file,
      [
        line('c1', 'user', "Hi, my name is Sam. I'm training for the Lisbon marathon.", '2024-04-20T10:00:00Z'),
        line('c1', 'assistant', 'Nice to meet you, Sam!', '2024-04-20T10:00:30Z'),
        line('c2', 'user', 'I just adopted a dog named Rex.', '2024-04-21T10:00:00Z'),
        line(
          'c3',
          'user',
          'Proofread this:\n\nDear hiring team, my name is Jordan Blake and I am applying for the analyst role.',
          '2024-04-22T10:00:00Z',
        ),
      ].join('\n'),
    );
    const ingested = await pie(cli(['ingest', file, '--extractor', 'offline']), { PIE_TZ: 'UTC' });
    expect(ingested.code, ingested.stderr).toBe(0);
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('Sam is the user, and the cover letter named no one', async () => {
    const entity = await pie(cli(['entity', 'Sam']), { PIE_TZ: 'UTC' });
    expect(entity.code, entity.stderr).toBe(0);
    expect(entity.stdout).toMatch(/^User \(person\)\nAlso called: Sam\n/);
    expect(entity.stdout).toContain('OWNS → Rex');
    expect(entity.stdout).not.toContain('analyst');
    const people = await pie(cli(['--json', 'entities', '--type', 'person']), { PIE_TZ: 'UTC' });
    expect(people.code, people.stderr).toBe(0);
    const names = (JSON.parse(people.stdout) as { entities: { name: string }[] }).entities.map((e) => e.name);
    expect(names).toEqual(['User']);
  });

  it("a question about Sam compiles the user's block with the dog", async () => {
    const ctx = await pie(cli(['ask', '--context-only', 'What dog does Sam have?']), { PIE_TZ: 'UTC' });
    expect(ctx.code, ctx.stderr).toBe(0);
    expect(ctx.stdout).toContain('User (person, also called Sam)');
    expect(ctx.stdout).toMatch(/User OWNS Rex/);
  });
});
