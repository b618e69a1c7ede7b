import Database from 'better-sqlite3';
import { copyFileSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pie, pieJson, ROOT, tempDir } from '../helpers/cli.js';
import { rows, snapshot } from '../helpers/db.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'query', 'world.jsonl');
/** An isolated, long-forgotten tool: the one entity a late sleep should archive. */
const STALE_LINE = JSON.stringify({
  batch: { id: '2024-01-05', date: '2024-01-05T10:00:00Z', episodeIds: ['c-notebook'] },
  entities: [{ name: 'Moleskine Notebook', type: 'tool', state: { status: 'tried' } }],
  summary: 'Tried a paper notebook.',
});

/**
 * A conversation at the end of 2025: the memory's own activity reaches the sleeps' "now" (2026-01-01), so recency is
 * measured as of then (tiers follow the memory's latest conversation, not the wall clock: docs/metabolism.md).
 */
const RECENT_LINE = JSON.stringify({
  batch: { id: '2025-12-31', date: '2025-12-31T10:00:00Z', episodeIds: ['c-new-year'] },
  entities: [],
  summary: 'A note at the end of the year.',
});

interface Report {
  runId: string;
  dryRun: boolean;
  journaled: number;
  phases: { name: string; status: string; changes: number; details?: Record<string, unknown> }[];
  health: { entities: number; byTier: Record<string, number> };
}

describe('pie sleep / pie undo on a world built with pie apply', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const run = (args: string[]) => pie(['--db', db, ...args]);
  const runJson = <T>(args: string[]) => pieJson<T>(['--db', db, ...args]);

  beforeEach(async () => {
    dir = tempDir('pie-sleep-');
    db = join(dir.dir, 'pie.db');
    const input = join(dir.dir, 'world.jsonl');
    copyFileSync(FIXTURE, input);
    appendFileSync(input, `${STALE_LINE}\n${RECENT_LINE}\n`);
    expect((await run(['apply', input])).code).toBe(0);
  });
  afterEach(() => dir.cleanup());

  it('--dry-run reports the plan and writes nothing', async () => {
    const bytes = readFileSync(db);
    const before = snapshot(db);
    const report = await runJson<Report>(['sleep', '--dry-run', '--now', '2026-01-01']);
    expect(report.dryRun).toBe(true);
    expect(report.journaled).toBe(0);
    expect(report.phases.find((p) => p.name === 'tiers')).toMatchObject({ status: 'planned', changes: 9 });
    expect(readFileSync(db).equals(bytes)).toBe(true);
    expect(snapshot(db)).toEqual(before);
    expect(rows(db, 'SELECT * FROM maintenance_log')).toEqual([]);
  });

  it('sleeps (importance, summaries, archive, log) and undo restores every row exactly', async () => {
    const before = snapshot(db);
    const report = await runJson<Report>(['sleep', '--now', '2026-01-01']);
    expect(report.phases.slice(0, 4).map((p) => [p.name, p.status])).toEqual([
      ['salience', 'done'],
      ['tiers', 'done'],
      ['confidence decay', 'done'],
      ['procedures', 'done'],
    ]);
    expect(report.phases.slice(-2).map((p) => [p.name, p.status])).toEqual([
      ['sleep tasks', 'done'],
      ['TTL cleanup', 'done'],
    ]);
    const tiers = report.phases.find((p) => p.name === 'tiers');
    expect(tiers?.details?.moves).toEqual({ 'active→summarized': 8, 'active→archived': 1 });
    expect(report.health.byTier).toEqual({ active: 2, summarized: 8, archived: 1 });

    const entities = rows<{ name: string; tier: string; importance: number }>(
      db,
      'SELECT name, tier, importance FROM entities',
    );
    expect(entities.find((e) => e.name === 'Moleskine Notebook')).toMatchObject({ tier: 'archived' });
    expect(
      entities
        .filter((e) => e.tier === 'active')
        .map((e) => e.name)
        .sort(),
    ).toEqual(['gap semester in San Francisco', 'junior year at UMD']);
    const added = rows<{ kind: string; summary: string }>(
      db,
      "SELECT kind, summary FROM transitions WHERE kind IN ('summary', 'archival') ORDER BY kind",
    );
    expect(added.map((t) => t.kind)).toEqual(['archival', 'summary']);
    expect(added[1]?.summary).toMatch(/^3 changes from 2024-09-10 to 2025-07-01: .*tide alerts/);
    // The detailed history stays: the originals are all still there.
    for (const [table, list] of Object.entries(before)) {
      if (['entities', 'transitions', 'facts', 'sleep_tasks', 'relationships', 'insights'].includes(table)) continue;
      expect(snapshot(db)[table], table).toEqual(list);
    }
    expect(snapshot(db).transitions).toEqual(expect.arrayContaining(before.transitions ?? []));

    // Unreinforced facts lost confidence (never below the floor); certain ones kept it.
    const decay = report.phases.find((p) => p.name === 'confidence decay');
    const factsBefore = new Map(
      (before.facts ?? [])
        .map((r) => JSON.parse(r) as { id: string; confidence: number })
        .map((f) => [f.id, f.confidence]),
    );
    const factsAfter = rows<{ id: string; confidence: number }>(db, 'SELECT id, confidence FROM facts');
    const lowered = factsAfter.filter((f) => f.confidence < (factsBefore.get(f.id) ?? 0));
    expect(decay?.changes).toBeGreaterThan(0);
    expect(lowered).toHaveLength(decay?.changes ?? -1);
    expect(Math.min(...lowered.map((f) => f.confidence))).toBeGreaterThanOrEqual(0.3);
    expect(factsAfter.filter((f) => factsBefore.get(f.id) === 1).every((f) => f.confidence === 1)).toBe(true);

    const log = rows<{ id: string; status: string; report: string }>(
      db,
      'SELECT id, status, report FROM maintenance_log',
    );
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ id: report.runId, status: 'completed' });
    expect(JSON.parse(log[0]?.report ?? '{}')).toMatchObject({ runId: report.runId, journaled: report.journaled });
    const journal = rows<{ op: string }>(db, 'SELECT op FROM journal WHERE run_id = ?', report.runId);
    expect(journal).toHaveLength(report.journaled);
    expect(journal.filter((j) => j.op === 'insert')).toHaveLength(2);

    // Archived entities leave search; undo brings them back.
    const hits = await runJson<{ results: { kind: string; title?: string; name?: string }[] }>(['search', 'Moleskine']);
    expect(JSON.stringify(hits)).not.toMatch(/"kind":\s*"entity"/);

    const undone = await runJson<{ restored: number }>(['undo', report.runId]);
    expect(undone.restored).toBe(report.journaled);
    expect(snapshot(db)).toEqual(before);
    expect(rows(db, 'SELECT status FROM maintenance_log')).toEqual([{ status: 'undone' }]);
    const again = await run(['undo', report.runId]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/already been undone/);
  });

  it('a second run changes nothing new, and only the latest run can be undone', async () => {
    const first = await runJson<Report>(['sleep', '--now', '2026-01-01']);
    const second = await runJson<Report>(['sleep', '--now', '2026-01-01']);
    // The world model is settled after one run: open sleep tasks the first run tried at this instant are not tried
    // again at the same instant, so nothing changes (docs/metabolism.md "fixed point").
    const open = rows<{ n: number }>(db, "SELECT count(*) AS n FROM sleep_tasks WHERE status = 'pending'")[0]?.n;
    expect(open).toBeGreaterThan(0);
    expect(second.phases.filter((p) => p.status === 'done').map((p) => [p.name, p.changes])).toEqual(
      second.phases.filter((p) => p.status === 'done').map((p) => [p.name, 0]),
    );
    expect(second.journaled).toBe(0);
    const blocked = await run(['undo', first.runId]);
    expect(blocked.code).not.toBe(0);
    expect(blocked.stderr).toContain(`undo ${second.runId} first`);
    expect((await run(['undo', second.runId])).code).toBe(0);
    expect((await run(['undo', first.runId])).code).toBe(0);
  });

  it('daydream only rescores importance', async () => {
    const report = await runJson<Report>(['sleep', '--scope', 'daydream', '--now', '2026-01-01']);
    expect(report.phases.map((p) => p.status)).toEqual(['done', ...report.phases.slice(1).map(() => 'skipped')]);
    expect(report.phases.length).toBeGreaterThan(4);
    expect(rows(db, "SELECT count(*) AS n FROM entities WHERE tier <> 'active'")).toEqual([{ n: 0 }]);
    expect(report.journaled).toBe(report.phases[0]?.changes);
  });

  it('unknown run id: exit 4 naming the recent runs; bad scope: usage error', async () => {
    const first = await runJson<Report>(['sleep', '--scope', 'quick', '--now', '2026-01-01']);
    const r = await run(['undo', 'sleep-nope']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('No maintenance run "sleep-nope"');
    expect(r.stderr).toContain(first.runId);
    const bad = await run(['sleep', '--scope', 'nap']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--scope must be one of daydream, quick, full/);
  });

  it('pie health reports the targets, pending changes and the runs', async () => {
    const fresh = await runJson<{ pending: { tiers: number }; runs: unknown[]; health: { entities: number } }>([
      'health',
      '--now',
      '2026-01-01',
    ]);
    expect(fresh).toMatchObject({ pending: { tiers: 9 }, runs: [], health: { entities: 11 } });
    const report = await runJson<Report>(['sleep', '--now', '2026-01-01']);
    const text = await run(['health', '--now', '2026-01-01']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('A sleep now would change 0 importance scores and 0 tiers');
    expect(text.stdout).toContain(report.runId);
  });

  it('human output names the run and how to undo it', async () => {
    const r = await run(['sleep', '--now', '2026-01-01']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Sleep run sleep-[0-9a-f-]+: scope full\./);
    expect(r.stdout).toMatch(/revert with: pie undo sleep-/);
  });
});

describe('pie procedures: the deterministic miner over a multi-project history', () => {
  it('finds the shared project lifecycle after a full sleep', async () => {
    const dir = tempDir('pie-proc-');
    try {
      const db = join(dir.dir, 'pie.db');
      const input = join(dir.dir, 'multi.jsonl');
      const projects: [string, number, string[]][] = [
        ['Alpha', 2023, ['idea', 'research', 'prototype', 'launched']],
        ['Beta', 2024, ['idea', 'research', 'prototype', 'abandoned']],
        ['Gamma', 2025, ['idea', 'research', 'prototype', 'launched']],
      ];
      const lines = projects.flatMap(([name, year, stages]) =>
        stages.map((stage, i) =>
          JSON.stringify({
            batch: { id: `${name}-${i}`, date: `${year}-0${i + 2}-10T12:00:00Z`, episodeIds: [`ep-${name}-${i}`] },
            entities: [{ name, type: 'project', state: { stage } }],
            summary: `${name} ${stage}`,
          }),
        ),
      );
      writeFileSync(input, `${lines.join('\n')}\n`);
      expect((await pie(['--db', db, 'apply', input])).code).toBe(0);
      const empty = await pie(['--db', db, 'procedures']);
      expect(empty.stdout).toMatch(/No procedures yet/);
      expect((await pie(['--db', db, 'sleep', '--now', '2025-08-01'])).code).toBe(0);
      const out = await pieJson<{
        total: number;
        procedures: { pattern: string[]; timesObserved: number; evidence: string[] }[];
      }>(['--db', db, 'procedures', '--domain', 'project lifecycle']);
      expect(out.procedures.map((p) => [p.pattern.join(' → '), p.timesObserved])).toEqual([
        ['stage=idea → stage=research → stage=prototype', 3],
        ['stage=idea → stage=research → stage=prototype → stage=launched', 2],
      ]);
      expect(out.procedures[0]?.evidence).toEqual(expect.arrayContaining(['ep-Beta-0']));
      expect((await pieJson<{ total: number }>(['--db', db, 'procedures', '--domain', 'belief lifecycle'])).total).toBe(
        0,
      );
      // A procedure the miner no longer finds is retired (journaled); one it did not make stays.
      const conn = new Database(db);
      conn
        .prepare(
          "INSERT INTO procedures (id, description, pattern, evidence, times_observed, first_observed, last_observed, domain, confidence) VALUES (?, 'old', '[]', '[]', 1, 0, 0, 'project lifecycle', 0.5)",
        )
        .run('proc-0000000000000000');
      conn
        .prepare(
          "INSERT INTO procedures (id, description, pattern, evidence, times_observed, first_observed, last_observed, domain, confidence) VALUES (?, 'mine', '[]', '[]', 1, 0, 0, 'project lifecycle', 0.5)",
        )
        .run('manual-1');
      conn.close();
      const again = await pieJson<{ phases: { name: string; details?: { retired?: string[] } }[] }>([
        '--db',
        db,
        'sleep',
        '--now',
        '2025-08-02',
      ]);
      expect(again.phases.find((p) => p.name === 'procedures')?.details?.retired).toEqual(['proc-0000000000000000']);
      const ids = (await pieJson<{ procedures: { id: string }[] }>(['--db', db, 'procedures'])).procedures.map(
        (p) => p.id,
      );
      expect(ids).toContain('manual-1');
      expect(ids).not.toContain('proc-0000000000000000');
      const text = await pie(['--db', db, 'procedures']);
      expect(text.stdout).toContain('stage=idea → stage=research → stage=prototype');
    } finally {
      dir.cleanup();
    }
  });
});
