import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';

/**
 * Personal events set one `latest_event` attribute (a state field per verb made a person's state a list of a
 * hundred verbs); what else the person did lately reaches the context as one compact line, read from the store.
 */
let dir: string;
let cleanup: () => void;
let db: string;

const day = (d: number, what: string, value: string) =>
  JSON.stringify({
    batch: {
      id: `2023-05-${String(d).padStart(2, '0')}`,
      date: `2023-05-${String(d).padStart(2, '0')}T10:00:00Z`,
      episodeIds: [`s${d}`],
    },
    entities: [{ name: 'Melanie', type: 'person' }],
    stateChanges: [
      { entityName: 'Melanie', whatChanged: what, newStateAspect: value, attribute: 'latest_event', confidence: 0.6 },
    ],
  });

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('pie-events-'));
  db = join(dir, 'pie.db');
  const file = join(dir, 'events.jsonl');
  writeFileSync(
    file,
    [
      day(1, 'Went camping with the kids', 'went camping with the kids'),
      day(3, 'Signed up for a pottery class', 'signed up for a pottery class'),
      day(5, 'Painted a lake sunrise', 'painted a lake sunrise'),
      day(7, 'Ran a charity race', 'ran a charity race'),
      day(9, 'Took the kids to a park', 'took the kids to a park'),
    ].join('\n'),
  );
  const r = await pie(['--db', db, 'apply', file], { PIE_NOW: '2023-06-01' });
  if (r.code !== 0) throw new Error(r.stderr);
});
afterAll(() => cleanup());

describe("a person's recent events in the context", () => {
  it('the state holds the latest; the older events are listed once, newest first', async () => {
    const r = await pie(['--db', db, '--now', '2023-06-01', 'ask', 'What has Melanie been up to?', '--context-only']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Current state: latest_event: took the kids to a park.');
    const line = r.stdout.split('\n').find((l) => l.startsWith('  Also did lately:')) ?? '';
    // The latest three are shown as changes; the two before them are the line.
    expect(line).toBe(
      '  Also did lately: signed up for a pottery class (3 May 2023); went camping with the kids (1 May 2023).',
    );
  });
});
