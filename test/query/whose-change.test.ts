import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';

/**
 * A change shown apart from its entity's block ("Other relevant changes") says whose it is: where two people talk,
 * "Went to see Jay Chou's concert" alone leaves the reader to guess. The store's entity is read for every such change,
 * not only for first mentions.
 */
let dir: string;
let cleanup: () => void;
let db: string;

const event = (d: number, who: string, what: string) =>
  JSON.stringify({
    batch: { id: `2023-05-0${d}`, date: `2023-05-0${d}T10:00:00Z`, episodeIds: [`s${d}`] },
    entities: [{ name: who, type: 'person' }],
    stateChanges: [
      {
        entityName: who,
        whatChanged: what,
        newStateAspect: what.toLowerCase(),
        attribute: 'latest_event',
        confidence: 0.6,
      },
    ],
  });

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('pie-whose-'));
  db = join(dir, 'pie.db');
  const file = join(dir, 'events.jsonl');
  writeFileSync(
    file,
    [
      event(1, 'Lucy', "Went to see Jay Chou's concert"),
      event(2, 'Tom', 'Bought a new guitar'),
      event(3, 'Tom', 'Went hiking'),
    ].join('\n'),
  );
  const r = await pie(['--db', db, 'apply', file], { PIE_NOW: '2023-06-01' });
  if (r.code !== 0) throw new Error(r.stderr);
});
afterAll(() => cleanup());

describe('a loose change in the context', () => {
  it('is said with the entity it happened to', async () => {
    const r = await pie(['--db', db, '--now', '2023-06-01', 'ask', 'Who went to a concert?', '--context-only']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Lucy: Went to see Jay Chou's concert [1]");
  });
});
