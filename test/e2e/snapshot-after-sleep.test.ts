import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE, pie, pieJson, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * Two features crossed: a snapshot of the past, read before and after a full sleep of the ingested sample. A sleep
 * tends attention (tiers, summaries, archives) and discovers links; it changes nothing that was true back then:
 * the same entities, each with the tier, state and number of changes it had, and the same relationships (a link
 * the sleep discovers may join them).
 */

interface SnapshotJson {
  total: number;
  byTier: Record<string, number>;
  transitions: number;
  entities: { id: string; name: string; tier: string; changes: number; state: Record<string, unknown> }[];
  relationships: { id: string; type: string; source: { name: string }; target: { name: string } }[];
}

interface Period {
  name: string;
  start: number;
  end: number | null;
}

const NOW = '2025-11-01';
const PAST = '2025-03-01';

describe('a snapshot of the past after a sleep', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  let before: SnapshotJson;
  let beforeText: string;
  let timelineBefore: string;
  let periodsBefore: Period[];
  const cli = (args: string[]) => ['--db', db, '--now', NOW, ...args];

  beforeAll(async () => {
    dir = tempDir('pie-snapshot-sleep-');
    db = join(dir.dir, 'pie.db');
    expect((await pie(cli(['ingest', SAMPLE]))).code).toBe(0);
    before = await pieJson<SnapshotJson>(cli(['snapshot', '--at', PAST, '--limit', '500']));
    beforeText = (await pie(cli(['snapshot', '--at', PAST]))).stdout;
    timelineBefore = (await pie(cli(['timeline', 'Firebase']))).stdout;
    periodsBefore = (await pieJson<{ periods: Period[] }>(cli(['periods']))).periods;
    const slept = await pie(cli(['sleep', '--scope', 'full']));
    expect(slept.code, slept.stderr).toBe(0);
  }, 120_000);
  afterAll(() => dir.cleanup());

  it('the sleep summarized and linked something, so there is something to get wrong', () => {
    const kinds = rows<{ kind: string; n: number }>(
      db,
      `SELECT kind, count(*) AS n FROM transitions WHERE kind IN ('summary', 'archival') GROUP BY kind`,
    );
    expect(kinds.find((k) => k.kind === 'summary')?.n ?? 0).toBeGreaterThan(0);
    expect(rows(db, `SELECT id FROM relationships WHERE discovered_by = 'micro-dream'`).length).toBeGreaterThan(0);
  });

  it('counts, tiers, states and changes of the past are what they were', async () => {
    const after = await pieJson<SnapshotJson>(cli(['snapshot', '--at', PAST, '--limit', '500']));
    expect(after.total).toBe(before.total);
    expect(after.byTier).toEqual(before.byTier);
    expect(after.transitions).toBe(before.transitions);
    const byId = (s: SnapshotJson) =>
      Object.fromEntries(s.entities.map((e) => [e.id, { tier: e.tier, changes: e.changes, state: e.state }]));
    expect(byId(after)).toEqual(byId(before));
    // What held then still holds then; the sleep may only add what it discovered.
    expect(after.relationships.map((r) => r.id)).toEqual(expect.arrayContaining(before.relationships.map((r) => r.id)));
    const header = (text: string) => text.split('\n')[0];
    expect(header((await pie(cli(['snapshot', '--at', PAST]))).stdout)).toBe(header(beforeText));
  });

  it("an entity's change count does not count the summary the sleep wrote of its changes", async () => {
    const line = (text: string) => text.split('\n').find((l) => l.startsWith('Changed state'));
    expect(line(timelineBefore)).toMatch(/^Changed state \d+ times?/);
    expect(line((await pie(cli(['timeline', 'Firebase']))).stdout)).toBe(line(timelineBefore));
  });

  it('discovers no link between two things a relationship already linked, ended or not', () => {
    const twice = rows(
      db,
      `SELECT d.id FROM relationships d JOIN relationships r ON r.id <> d.id
         AND ((r.source_id = d.source_id AND r.target_id = d.target_id)
           OR (r.source_id = d.target_id AND r.target_id = d.source_id))
       WHERE d.discovered_by = 'micro-dream' AND (r.discovered_by IS NULL OR r.discovered_by <> 'micro-dream')`,
    );
    expect(twice).toEqual([]);
  });

  it('the text lists what a link is before a generic RELATED_TO, and no evidence id lists', async () => {
    const text = (await pie(cli(['snapshot', '--at', PAST]))).stdout;
    expect(text).not.toContain('evidenceEpisodes');
    // Under each entity, no typed relationship comes after a RELATED_TO.
    const blocks = text.split(/\n {2}• /).map((b) => b.split('\n').filter((l) => /^ {6}[←→] /.test(l)));
    for (const edges of blocks) {
      const firstGeneric = edges.findIndex((l) => / RELATED_TO /.test(l));
      if (firstGeneric >= 0) expect(edges.slice(firstGeneric).every((l) => / RELATED_TO /.test(l))).toBe(true);
    }
    expect(blocks.some((edges) => edges.some((l) => / RELATED_TO /.test(l)))).toBe(true);
  });

  it('talk about a period before it began (plans) does not move its start into the period before', async () => {
    // The sample plans its gap semester in April ("Telling my parents about the gap semester"), during junior year.
    const periods = (await pieJson<{ periods: Period[] }>(cli(['periods']))).periods;
    const named = (list: Period[], name: string) => list.find((p) => p.name === name);
    const gap = named(periods, 'gap semester in San Francisco');
    const junior = named(periods, 'junior year at UMD');
    expect(gap?.start).toBe(named(periodsBefore, 'gap semester in San Francisco')?.start);
    expect(gap?.start).toBeGreaterThan(junior?.end ?? Infinity);
  });
});
