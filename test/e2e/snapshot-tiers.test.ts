import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE, pie, pieJson, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * Three features crossed: a sleep that moves tiers (most of them without a summary record: those are written only
 * for entities with 3+ changes), snapshots and diffs of now and of the past, and undo. A snapshot at T shows the
 * tier each entity had at T: from the sleep that moved it on (its clock), its earlier tier before. So a snapshot of
 * now agrees with `pie stats` and `pie entity`, a snapshot of the past is what it was, and undo gives back exactly
 * the snapshots before. (Until this test, only summary and archival records were read: after a sleep that
 * summarized 33 entities, a snapshot of now said 2 summarized, and one from a sleep with its clock in March, none.)
 */

interface SnapshotJson {
  total: number;
  byTier: Record<string, number>;
  transitions: number;
  entities: { id: string; name: string; tier: string; changes: number; state: Record<string, unknown> }[];
}
interface EntitiesJson {
  entities: { id: string; name: string; tier: string }[];
}
interface StatsJson {
  entitiesByTier: Record<string, number>;
}
interface DiffJson {
  created: { items: { id: string; tier: string }[] };
}

const NOW = '2025-11-01';
const PAST = '2025-03-01';
const TIERS = { active: 0, summarized: 0, archived: 0 };

function memory(prefix: string) {
  const dir = tempDir(prefix);
  const db = join(dir.dir, 'pie.db');
  const at = (now: string) => (args: string[]) => ['--db', db, '--tz', 'UTC', '--now', now, ...args];
  const cli = at(NOW);
  return {
    db,
    cleanup: dir.cleanup,
    cli,
    at,
    snapshot: (when?: string) =>
      pieJson<SnapshotJson>(cli(['snapshot', ...(when ? ['--at', when] : []), '--limit', '500'])),
    /** Each entity's tier as the entity itself says it (pie entities), and the counts pie stats gives. */
    async current(): Promise<{ tiers: Map<string, string>; byTier: typeof TIERS }> {
      const list = await pieJson<EntitiesJson>(cli(['entities', '--limit', '500']));
      const stats = await pieJson<StatsJson>(cli(['stats']));
      return {
        tiers: new Map(list.entities.map((e) => [e.id, e.tier])),
        byTier: { ...TIERS, ...stats.entitiesByTier },
      };
    },
  };
}

const tiersOf = (s: SnapshotJson): Map<string, string> => new Map(s.entities.map((e) => [e.id, e.tier]));
/** What a snapshot says was true then (importance, which ranks the list, is today's, and a sleep moves it). */
const thenOf = (s: SnapshotJson) => ({
  total: s.total,
  byTier: s.byTier,
  transitions: s.transitions,
  entities: Object.fromEntries(s.entities.map((e) => [e.id, { tier: e.tier, changes: e.changes, state: e.state }])),
});

describe('snapshot tiers after a sleep that moves tiers without summary records', () => {
  const m = memory('pie-snapshot-tiers-');
  let pastBefore: SnapshotJson;
  let nowBefore: SnapshotJson;
  let runId: string;

  beforeAll(async () => {
    expect((await pie(m.cli(['ingest', SAMPLE]))).code).toBe(0);
    pastBefore = await m.snapshot(PAST);
    nowBefore = await m.snapshot();
    runId = (await pieJson<{ runId: string }>(m.cli(['sleep']))).runId;
  }, 120_000);
  afterAll(() => m.cleanup());

  it('the sleep moved tiers, most of them without a summary or archival record', async () => {
    const { byTier } = await m.current();
    expect(byTier.summarized).toBeGreaterThan(10);
    const records = rows<{ n: number }>(
      m.db,
      `SELECT count(*) AS n FROM transitions WHERE kind IN ('summary', 'archival')`,
    )[0]?.n;
    expect(records).toBeLessThan(byTier.summarized + byTier.archived - 10);
  });

  it('a snapshot of now gives every entity the tier pie entities and pie stats give it', async () => {
    const now = await m.snapshot();
    const { tiers, byTier } = await m.current();
    expect(now.byTier).toEqual(byTier);
    expect(now.entities).toHaveLength(tiers.size);
    expect(tiersOf(now)).toEqual(tiers);
    const react = now.entities.find((e) => e.name === 'React');
    expect(react?.tier).toBe('summarized');
    expect((await pie(m.cli(['entity', 'React']))).stdout).toContain('tier summarized');
    const text = (await pie(m.cli(['snapshot']))).stdout.split('\n')[0];
    expect(text).toContain(`Of these, ${byTier.summarized} summarized and ${byTier.archived} archived`);
  });

  it("a diff's tier badges at now are the entities' tiers", async () => {
    const diff = await pieJson<DiffJson>(m.cli(['diff', PAST, 'now', '--limit', '100']));
    const { tiers } = await m.current();
    expect(diff.created.items.length).toBeGreaterThan(10);
    for (const e of diff.created.items) expect(e.tier, e.id).toBe(tiers.get(e.id));
    expect(diff.created.items.some((e) => e.tier === 'summarized')).toBe(true);
  });

  it('a snapshot of the past reads as it did before the sleep', async () => {
    expect(thenOf(await m.snapshot(PAST))).toEqual(thenOf(pastBefore));
  });

  it('undoing the sleep gives back exactly the snapshots before it', async () => {
    const undone = await pie(m.cli(['undo', runId]));
    expect(undone.code, undone.stderr).toBe(0);
    expect(await m.snapshot()).toEqual(nowBefore);
    expect(await m.snapshot(PAST)).toEqual(pastBefore);
    expect((await m.snapshot()).byTier).toEqual((await m.current()).byTier);
  });
});

describe('snapshot tiers after a sleep with its clock set in the past', () => {
  const m = memory('pie-snapshot-tiers-past-');
  const BEFORE_IT = '2025-02-28';
  const AFTER_IT = '2025-06-01';
  let before: SnapshotJson;
  let after: SnapshotJson;

  beforeAll(async () => {
    expect((await pie(m.cli(['ingest', SAMPLE]))).code).toBe(0);
    before = await m.snapshot(BEFORE_IT);
    after = await m.snapshot(AFTER_IT);
    const slept = await pie(m.at(PAST)(['sleep']));
    expect(slept.code, slept.stderr).toBe(0);
  }, 120_000);
  afterAll(() => m.cleanup());

  it('changes nothing before its clock and shows its tiers from its clock on, up to now', async () => {
    const { byTier, tiers } = await m.current();
    expect(byTier.summarized).toBeGreaterThan(5);
    expect(thenOf(await m.snapshot(BEFORE_IT))).toEqual(thenOf(before));
    const later = await m.snapshot(AFTER_IT);
    expect(later.byTier.summarized).toBe(byTier.summarized);
    expect(later.total).toBe(after.total);
    const now = await m.snapshot();
    expect(now.byTier).toEqual(byTier);
    expect(tiersOf(now)).toEqual(tiers);
  });

  it('a later sleep at the real now leaves the earlier snapshots as they read and now still agrees', async () => {
    const early = await m.snapshot(BEFORE_IT);
    const middle = await m.snapshot(AFTER_IT);
    expect((await pie(m.cli(['sleep']))).code).toBe(0);
    expect(thenOf(await m.snapshot(BEFORE_IT))).toEqual(thenOf(early));
    expect((await m.snapshot(AFTER_IT)).byTier).toEqual(middle.byTier);
    const { byTier, tiers } = await m.current();
    const now = await m.snapshot();
    expect(now.byTier).toEqual(byTier);
    expect(tiersOf(now)).toEqual(tiers);
  });
});
