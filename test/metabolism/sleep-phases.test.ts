import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pie, pieJson, tempDir } from '../helpers/cli.js';
import { applyPhasesWorld, PHASES_NOW, rows, snapshot } from './phases-world.js';

interface Phase {
  name: string;
  status: string;
  changes: number;
  reason?: string;
  details?: Record<string, unknown>;
  issues?: string[];
}
interface Report {
  runId: string;
  journaled: number;
  phases: Phase[];
}

const MINE = ['commitments sweep', 'contradiction supersession', 'period refinement', 'micro dreams'];

describe('sleep phases on a world built with pie apply (no model)', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;

  beforeEach(async () => {
    dir = tempDir('pie-phases-');
    db = await applyPhasesWorld(dir.dir);
    // The period's start drifted earlier than anything linked to it (e.g. an edit): refinement narrows it back.
    const conn = new Database(db);
    conn.prepare("UPDATE periods SET start_at = ? WHERE name = 'junior year'").run(Date.UTC(2024, 7, 1));
    conn.close();
  });
  afterEach(() => dir.cleanup());

  const phase = (r: Report, name: string) => r.phases.find((p) => p.name === name);

  it('dry run plans; the real run resolves, sweeps, links and reports; undo restores every row', async () => {
    const before = snapshot(db);
    const dry = await pieJson<Report>(['--db', db, 'sleep', '--dry-run', '--now', PHASES_NOW]);
    expect(MINE.map((n) => [n, phase(dry, n)?.status, phase(dry, n)?.changes])).toEqual([
      ['commitments sweep', 'planned', 2],
      ['contradiction supersession', 'planned', 2],
      ['period refinement', 'planned', 1],
      ['micro dreams', 'planned', 1],
    ]);
    expect(phase(dry, 'period refinement')?.details?.refined).toEqual([
      'junior year: 2024-08-01 – 2024-11-01 → 2024-09-10 – 2024-11-01 (6 pieces of evidence)',
    ]);
    expect(snapshot(db)).toEqual(before);

    const report = await pieJson<Report>(['--db', db, 'sleep', '--now', PHASES_NOW]);
    const sweep = phase(report, 'commitments sweep');
    expect(sweep).toMatchObject({
      status: 'done',
      changes: 2,
      details: { commitments: 4, open: 4, pending: 1, undated: 0, overdue: 1, expired: 1, fulfilled: 1 },
      issues: ['Overdue commitment "send the Q3 report" (to Maya Chen): due 2025-12-20, 11 days ago'],
    });
    const states = rows<{ name: string; state: string }>(
      db,
      "SELECT name, state FROM entities WHERE type = 'commitment' ORDER BY name",
    ).map((e) => [e.name, (JSON.parse(e.state) as { status: string }).status]);
    expect(states).toEqual([
      ['finish the grant application', 'fulfilled'],
      ['plan the offsite', 'open'],
      ['renew the passport', 'expired'],
      ['send the Q3 report', 'open'],
    ]);
    const statusFacts = rows<{ name: string; value: string; valid_from: number; valid_to: number | null }>(
      db,
      `SELECT e.name, f.value, f.valid_from, f.valid_to FROM facts f JOIN entities e ON e.id = f.entity_id
       WHERE f.attribute = 'status' AND e.name IN ('renew the passport', 'finish the grant application')
       ORDER BY e.name, f.valid_from`,
    );
    const now = Date.parse(`${PHASES_NOW}T00:00:00Z`);
    const kept = Date.parse('2025-11-10T12:00:00Z');
    expect(statusFacts).toEqual([
      {
        name: 'finish the grant application',
        value: '"open"',
        valid_from: Date.parse('2025-10-01T12:00:00Z'),
        valid_to: kept,
      },
      { name: 'finish the grant application', value: '"fulfilled"', valid_from: kept, valid_to: null },
      { name: 'renew the passport', value: '"open"', valid_from: Date.parse('2025-05-01T12:00:00Z'), valid_to: now },
      { name: 'renew the passport', value: '"expired"', valid_from: now, valid_to: null },
    ]);
    const sweepTransitions = rows<{ summary: string }>(
      db,
      "SELECT summary FROM transitions WHERE kind = 'update' AND summary LIKE 'status:%' ORDER BY summary",
    ).map((t) => t.summary);
    expect(sweepTransitions).toEqual([
      'status: open → expired (213 days past due (2025-06-01) with no activity since)',
      'status: open → fulfilled (kept: Submitted the grant application)',
    ]);

    expect(phase(report, 'contradiction supersession')).toMatchObject({
      status: 'done',
      changes: 2,
      details: { open: 4, 'flip-flop': 1, 'moved-on': 1, stood: 1, undecided: 1, leftOpen: 1 },
      issues: ['Unsettled contradiction: Sam Ortiz (diet: vegetarian → eats meat, 2025-01-10) went back and forth'],
    });
    const resolutions = rows<{ name: string; summary: string; event_time: number }>(
      db,
      `SELECT e.name, t.summary, t.event_time FROM transitions t JOIN entities e ON e.id = t.entity_id
       WHERE t.kind = 'resolution' ORDER BY e.name`,
    );
    expect(resolutions).toEqual([
      {
        name: 'Atlas',
        summary:
          '"cancelled" superseded "planning" (stage), held since 2025-02-01: the older value never came back (changed to "revived" on 2025-04-01)',
        event_time: Date.parse('2025-04-01T12:00:00Z'),
      },
      {
        name: 'Tidepool',
        summary:
          '"tide alerts" superseded "surf reports" (focus), held since 2025-02-14: unchallenged for 320 days, referenced 1 time since',
        event_time: now,
      },
    ]);
    const contradictions = rows<{ name: string; resolved: number }>(
      db,
      `SELECT e.name, (t.resolved_by IS NOT NULL) AS resolved FROM transitions t JOIN entities e ON e.id = t.entity_id
       WHERE t.kind = 'contradiction' ORDER BY e.name, t.event_time`,
    );
    expect(contradictions).toEqual([
      { name: 'Atlas', resolved: 1 },
      { name: 'Sam Ortiz', resolved: 0 },
      { name: 'Sam Ortiz', resolved: 0 },
      { name: 'Tidepool', resolved: 1 },
    ]);

    // Written as a journaled periods row (undone below with everything else).
    expect(phase(report, 'period refinement')).toMatchObject({ status: 'done', changes: 1 });
    expect(rows(db, "SELECT start_at, end_at FROM periods WHERE name = 'junior year'")).toEqual([
      { start_at: Date.parse('2024-09-10T12:00:00Z'), end_at: Date.parse('2024-11-01T12:00:00Z') },
    ]);

    expect(phase(report, 'micro dreams')).toMatchObject({ status: 'done', changes: 1 });
    const discovered = rows<{ a: string; b: string; type: string; properties: string; confidence: number }>(
      db,
      `SELECT s.name AS a, t.name AS b, r.type, r.properties, r.confidence FROM relationships r
       JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id WHERE r.discovered_by = 'micro-dream'`,
    ).map((r) => ({ ...r, pair: [r.a, r.b].sort() }));
    expect(discovered).toHaveLength(1);
    expect(discovered[0]).toMatchObject({ pair: ['Maya Chen', 'Sam Ortiz'], type: 'RELATED_TO', confidence: 0.67 });
    expect(JSON.parse(discovered[0]?.properties ?? '{}')).toEqual({
      coMentions: 3,
      evidenceEpisodes: 'e-start, e-atlas, e-diet1',
    });
    expect(phase(report, 'deep dreams')).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/needs a model/),
    });

    // A second run at the same time finds nothing new for these phases.
    const second = await pieJson<Report>(['--db', db, 'sleep', '--now', PHASES_NOW]);
    expect(MINE.map((n) => phase(second, n)?.changes)).toEqual([0, 0, 0, 0]);
    expect((await pie(['--db', db, 'undo', second.runId])).code).toBe(0);

    const undone = await pieJson<{ restored: number }>(['--db', db, 'undo', report.runId]);
    expect(undone.restored).toBe(report.journaled);
    expect(snapshot(db)).toEqual(before);
  });
});
