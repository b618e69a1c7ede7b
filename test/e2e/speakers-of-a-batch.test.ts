import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * Import, offline extraction and the world's mentions crossed on a history where one day holds several people's
 * conversations (MemoryBank's shape: a user per history, a conversation per user and day, extracted a day at a
 * time). Each speaker must be mentioned in their own conversations only: before, every speaker of the day was
 * recorded as mentioned in the day's first conversation, so Frank was "first mentioned" in Emily's chat.
 */
describe('speakers of one batch', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const cli = (args: string[]) => ['--db', db, '--now', '2023-06-01', ...args];

  beforeAll(async () => {
    dir = tempDir('pie-speakers-');
    db = join(dir.dir, 'pie.db');
    const file = join(dir.dir, 'bank.json');
    const day = (query: string) => [{ query, response: 'That sounds lovely, tell me more.' }];
    writeFileSync(
      file,
      JSON.stringify({
        Emily: {
          name: 'Emily',
          history: {
            '2023-04-27': day('Today I went for a walk in Green Meadow Park.'),
            '2023-04-28': day('I painted a small landscape this afternoon.'),
          },
        },
        Frank: {
          name: 'Frank',
          history: {
            '2023-04-27': day('Today I went for a run in the park for an hour.'),
            '2023-04-28': day('I read a book called "To Live" this evening.'),
          },
        },
      }),
    );
    const ingested = await pie(cli(['ingest', file, '--format', 'memorybank', '--extractor', 'offline']), {
      PIE_TZ: 'UTC',
    });
    expect(ingested.code, ingested.stderr).toBe(0);
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('mentions each speaker only in the conversations they took part in', () => {
    const mentions = rows<{ name: string; title: string }>(
      db,
      `SELECT n.name AS name, e.title AS title FROM entity_mentions m
         JOIN entities n ON n.id = m.entity_id JOIN episodes e ON e.id = m.episode_id
        WHERE n.type = 'person' ORDER BY n.name, e.title`,
    );
    expect(mentions.length).toBeGreaterThan(0);
    for (const m of mentions) expect(m.title.startsWith(`${m.name} — `), `${m.name} in ${m.title}`).toBe(true);
  });

  it('the timeline says Frank was first mentioned in his own conversation', async () => {
    const timeline = await pie(cli(['timeline', 'Frank']), { PIE_TZ: 'UTC' });
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout).toContain('First mentioned in “Frank — 2023-04-27”');
    expect(timeline.stdout).not.toContain('Emily —');
  });
});
