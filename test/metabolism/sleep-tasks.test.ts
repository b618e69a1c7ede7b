import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { runSleep } from '../../src/metabolism/sleep.js';
import { sleepTasksPhase } from '../../src/metabolism/tasks/phase.js';
import { ttlPhase } from '../../src/metabolism/tasks/ttl.js';
import type { SleepScope } from '../../src/metabolism/plan.js';
import { undoRun } from '../../src/metabolism/undo.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { pie, ROOT, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'query', 'world.jsonl');
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);

interface TaskRow {
  id: string;
  action: string;
  status: string;
  attempts: number;
  result: string | null;
  expires_at: number | null;
}

function tasks(db: string): TaskRow[] {
  const conn = new Database(db, { readonly: true });
  try {
    return conn
      .prepare('SELECT id, action, status, attempts, result, expires_at FROM sleep_tasks ORDER BY action, id')
      .all() as TaskRow[];
  } finally {
    conn.close();
  }
}

function allRows(db: string): string[] {
  const conn = new Database(db, { readonly: true });
  try {
    return (conn.prepare('SELECT * FROM sleep_tasks ORDER BY id').all() as unknown[]).map((r) => JSON.stringify(r));
  } finally {
    conn.close();
  }
}

describe('sleep tasks: left by ingest, processed by the cycle, expired by TTL, undoable', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  let store: WorldStore;
  let seq = 0;

  const sleep = (scope: SleepScope, now: number) =>
    runSleep({
      store,
      scope,
      dryRun: false,
      now,
      runId: `sleep-${++seq}`,
      newId: () => `id-${++seq}`,
      phases: [sleepTasksPhase, ttlPhase],
    });

  beforeEach(async () => {
    dir = tempDir('pie-tasks-');
    db = join(dir.dir, 'pie.db');
    expect((await pie(['--db', db, 'apply', FIXTURE])).code).toBe(0);
    store = await openSqliteStore({ path: db });
  });
  afterEach(async () => {
    await store.close();
    dir.cleanup();
  });

  it('pie apply leaves one resolve_contradiction task per contradiction it recorded', async () => {
    const contradictions = await store.transitions.list({ unresolved: true });
    expect(contradictions.length).toBeGreaterThan(0);
    const left = await store.tasks.list();
    expect(left.filter((t) => t.action === 'resolve_contradiction').map((t) => t.payload.transitionId)).toEqual(
      expect.arrayContaining(contradictions.map((t) => t.id)),
    );
    expect(left.every((t) => t.source === 'ingest' && t.status === 'pending')).toBe(true);
    // applying the same file again leaves no second task for the same contradiction
    const before = left.length;
    expect((await pie(['--db', db, 'apply', FIXTURE])).code).toBe(0);
    expect(await store.tasks.count()).toBe(before);
  });

  it('quick leaves full-cycle work pending; full retries it, then gives up after 3 cycles; reviews finish at once', async () => {
    const tidepool = (await store.entities.findByKey('tidepool'))[0];
    expect(tidepool).toBeDefined();
    await store.tasks.leave({
      id: 'stale-1',
      action: 'review_stale_entity',
      subjectIds: [tidepool?.id ?? ''],
      priority: 40,
      source: 'query',
      reason: 'important but not referenced for a long time',
      createdAt: NOW - DAY,
    });
    await store.tasks.leave({
      id: 'gone-1',
      action: 'merge_duplicates',
      subjectIds: [tidepool?.id ?? '', 'no-such-entity'],
      priority: 60,
      source: 'ingest',
      reason: 'close names',
      createdAt: NOW - DAY,
    });

    // A pair left for review, on two live entities (seeded: ingestion sends no pair of this world to review since the
    // resolver weighs the words where names differ — these two beliefs share only "knowledge graphs").
    const beliefs = (await store.entities.list({ limit: 100 })).filter((e) => e.type === 'belief');
    expect(beliefs).toHaveLength(2);
    const merges = (await store.tasks.list()).filter((t) => t.action === 'merge_duplicates');
    expect(merges.map((t) => t.id)).toEqual(['gone-1']);
    await store.tasks.leave({
      id: 'close-1',
      action: 'merge_duplicates',
      subjectIds: beliefs.map((b) => b.id),
      priority: 60,
      source: 'ingest',
      reason: 'close names',
      createdAt: NOW - DAY,
    });

    const quick = await sleep('quick', NOW);
    expect(quick.phases.find((p) => p.name === 'sleep tasks')?.details).toMatchObject({
      examined: 1,
      byOutcome: { completed: 1 },
    });
    const afterQuick = tasks(db);
    expect(afterQuick.find((t) => t.id === 'stale-1')).toMatchObject({
      status: 'completed',
      attempts: 1,
      expires_at: NOW + 14 * DAY,
    });
    // the review records the entity as the cycle's earlier phases left it (tiers ran before it)
    const now = await store.entities.get(tidepool?.id ?? '');
    expect(afterQuick.find((t) => t.id === 'stale-1')?.result).toBe(
      `Reviewed: ${now?.tier}, importance ${now?.importance.toFixed(2)}, last seen ${new Date(now?.lastSeen ?? 0).toISOString().slice(0, 10)}.`,
    );
    expect(afterQuick.filter((t) => t.action === 'resolve_contradiction').every((t) => t.attempts === 0)).toBe(true);
    expect(afterQuick.find((t) => t.id === 'gone-1')).toMatchObject({ status: 'pending', attempts: 0 });

    await sleep('full', NOW + DAY);
    const first = tasks(db);
    expect(first.find((t) => t.id === 'gone-1')).toMatchObject({
      status: 'dismissed',
      result: 'A subject entity no longer exists.',
    });
    expect(first.filter((t) => t.action === 'resolve_contradiction')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'pending', attempts: 1, result: 'Still unresolved.' }),
      ]),
    );
    await sleep('full', NOW + 2 * DAY);
    const third = await sleep('full', NOW + 3 * DAY);
    const contradictionTasks = tasks(db).filter((t) => t.action === 'resolve_contradiction');
    expect(contradictionTasks.every((t) => t.status === 'failed' && t.attempts === 3)).toBe(true);
    expect(contradictionTasks[0]?.result).toBe('Still unresolved after 3 cycles; left for a person.');
    // every task that gave up in that cycle is listed for a person (the contradictions and the pair left for review)
    const failed = tasks(db).filter((t) => t.status === 'failed');
    expect(failed.map((t) => t.action).sort()).toEqual([
      'merge_duplicates',
      ...contradictionTasks.map(() => 'resolve_contradiction'),
    ]);
    expect(third.phases.find((p) => p.name === 'sleep tasks')?.issues).toHaveLength(failed.length);
  });

  it('pie ask leaves a review task for an important entity it retrieved that has gone stale', async () => {
    const tidepool = (await store.entities.findByKey('tidepool'))[0];
    await store.entities.update(tidepool?.id ?? '', { importance: 0.8, updatedAt: NOW });
    const r = await pie(['--db', db, 'ask', 'What is Tidepool now?', '--context-only', '--now', '2026-06-01']);
    expect(r.code).toBe(0);
    const reviews = (await store.tasks.list()).filter((t) => t.action === 'review_stale_entity');
    expect(reviews.map((t) => [t.subjectIds, t.source])).toEqual([[[tidepool?.id], 'query']]);
    // asking again while the task is open adds none
    await pie(['--db', db, 'ask', 'What is Tidepool now?', '--context-only', '--now', '2026-06-02']);
    expect((await store.tasks.list()).filter((t) => t.action === 'review_stale_entity')).toHaveLength(1);
  });

  it('a contradiction resolved since is completed with its resolver', async () => {
    const [open] = await store.transitions.list({ unresolved: true });
    expect(open).toBeDefined();
    await store.transitions.markResolved({ id: open?.id ?? '', resolvedBy: 'tr-resolution' });
    await sleep('full', NOW);
    const task = tasks(db).find((t) => t.action === 'resolve_contradiction' && t.status === 'completed');
    expect(task?.result).toBe('Resolved by tr-resolution.');
  });

  it('TTL deletes finished tasks after their expiry, and undo brings them back exactly', async () => {
    await sleep('full', NOW);
    await sleep('full', NOW + DAY);
    await sleep('full', NOW + 2 * DAY); // every contradiction task is finished now
    const finished = tasks(db).filter((t) => t.status !== 'pending');
    expect(finished.length).toBeGreaterThan(0);
    const before = allRows(db);

    const early = await sleep('full', NOW + 10 * DAY);
    expect(early.phases.find((p) => p.name === 'TTL cleanup')?.changes).toBe(0);
    const late = await sleep('full', NOW + 17 * DAY);
    expect(late.phases.find((p) => p.name === 'TTL cleanup')).toMatchObject({
      status: 'done',
      changes: finished.length,
    });
    expect(tasks(db)).toEqual([]);

    await undoRun({ store, runId: late.runId, now: NOW + 18 * DAY });
    expect(allRows(db)).toEqual(before);
  });

  it('a dry run changes no task', async () => {
    const before = allRows(db);
    const report = await runSleep({
      store,
      scope: 'full',
      dryRun: true,
      now: NOW,
      runId: 'dry',
      newId: () => `id-${++seq}`,
      phases: [sleepTasksPhase, ttlPhase],
    });
    expect(report.phases.find((p) => p.name === 'sleep tasks')).toMatchObject({ status: 'planned' });
    expect(allRows(db)).toEqual(before);
  });
});
