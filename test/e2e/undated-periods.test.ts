import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, structured, textOf } from '../mcp/harness.js';
import { pie, pieJson, tempDir } from '../helpers/cli.js';

/**
 * A period said in talk ("Maya's childhood") is a period entity with no dates; only periods with a start are in the
 * store's period list. `pie periods` had said "No periods yet" of a LoCoMo memory naming eleven, and `pie stats` and
 * the ingest summary counted 0.
 */
let dir: { dir: string; cleanup: () => void };
let db: string;
const G = ['--tz', 'UTC', '--now', '2025-11-01'];

beforeAll(async () => {
  dir = tempDir('pie-undated-periods-');
  db = join(dir.dir, 'pie.db');
  const file = join(dir.dir, 'world.jsonl');
  const batch = (id: string, date: string, rest: Record<string, unknown>) =>
    JSON.stringify({ batch: { id, date: `${date}T12:00:00Z`, episodeIds: [`e-${id}`] }, ...rest });
  writeFileSync(
    file,
    [
      batch('b1', '2025-02-01', {
        periodContext: 'junior year',
        entities: [
          { name: 'Maya Chen', type: 'person' },
          { name: "Maya's childhood", type: 'period', state: { status: 'ended' } },
        ],
        relationships: [{ source: 'Maya Chen', target: "Maya's childhood", type: 'HAS_PERIOD' }],
      }),
    ].join('\n') + '\n',
  );
  expect((await pie(['--db', db, ...G, 'apply', file])).code).toBe(0);
});
afterAll(() => dir.cleanup());

describe('periods named without dates', () => {
  it('pie periods lists them after the dated ones; --json has them as undated', async () => {
    const text = (await pie(['--db', db, ...G, 'periods'])).stdout;
    expect(text).toMatch(/^junior year\s+2025-02-01/m);
    expect(text).toContain('Named in the conversations, without dates (last mentioned):');
    expect(text).toMatch(/Maya's childhood\s+ended\s+2025-02-01/);
    const json = await pieJson<{ periods: { name: string }[]; undated: { name: string; status: string }[] }>([
      '--db',
      db,
      ...G,
      'periods',
    ]);
    expect(json.periods.map((p) => p.name)).toEqual(['junior year']);
    expect(json.undated).toMatchObject([{ name: "Maya's childhood", status: 'ended' }]);
  });

  it('pie stats counts every period and says how many have dates', async () => {
    const text = (await pie(['--db', db, ...G, 'stats'])).stdout;
    expect(text).toMatch(/^periods\s+2\s+1 with dates; pie periods lists them all$/m);
  });

  it('list_periods gives them too', async () => {
    const mcp = await connect({ db });
    try {
      const r = await mcp.call('list_periods');
      expect(r.isError).toBeFalsy();
      expect(textOf(r)).toContain("Named in the conversations, without dates:\n  • Maya's childhood (ended)");
      expect(structured<{ undated: { name: string }[] }>(r).undated.map((p) => p.name)).toEqual(["Maya's childhood"]);
    } finally {
      await mcp.close();
    }
  });
});
