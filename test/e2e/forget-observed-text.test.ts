import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSample, pie, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * Forgetting a text that no conversation turn holds (black-box QA): an observation written with pie observe (and
 * the summaries made from it) held "Portuguese", yet pie forget answered that nothing stored contained it, so a
 * sentence a person typed into the memory could not be forgotten by its words.
 */
let dir: string;
let db: string;
let cleanup: () => void;
const cli = (args: string[]) => pie(['--db', db, '--now', '2025-11-01', ...args]);
beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'pie.db');
  await ingestSample(db, ['--now', '2025-11-01']);
  const o = await cli(['observe', 'I started learning Portuguese', '--at', '2025-10-25']);
  if (o.code !== 0) throw new Error(o.stderr);
  const s = await cli(['summarize']);
  if (s.code !== 0) throw new Error(s.stderr);
}, 120_000);
afterAll(() => cleanup());

const holding = (): number =>
  rows<{ n: number }>(db, "SELECT count(*) AS n FROM observations WHERE text LIKE '%Portuguese%'")[0]?.n ?? -1;

describe('forget a text only an observation holds', () => {
  it('plans and removes the observation and its summaries; a text nothing holds is still exit 4', async () => {
    expect(holding()).toBe(1);
    const r = await cli(['forget', 'Portuguese', '--kind', 'text', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Forgotten: 1 observation, \d+ summar/);
    expect(holding()).toBe(0);
    expect(rows<{ n: number }>(db, "SELECT count(*) AS n FROM summaries WHERE text LIKE '%Portuguese%'")).toEqual([
      { n: 0 },
    ]);
    const none = await cli(['forget', 'Portuguese', '--dry-run']);
    expect(none.code).toBe(4);
    expect(none.stderr).toBe(
      'pie: Nothing stored is called "Portuguese" or contains it: no entity, no conversation id or title, no turn and no other stored text.\n',
    );
  });
});
