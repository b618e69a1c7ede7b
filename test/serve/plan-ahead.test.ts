import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { SleepPlanCache } from '../../src/metabolism/plan-cache.js';
import { sleepPreviewId } from '../../src/metabolism/preview-id.js';
import { runSleep } from '../../src/metabolism/sleep.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { startPlanAhead, type PlanAhead } from '../../src/serve/plan-ahead/keep-ready.js';
import type { ThreadPlanner } from '../../src/serve/plan-ahead/thread.js';
import { fixtureWorld, NOW as NOW_TEXT } from '../mcp/harness.js';

/**
 * Keeping a sleep preview ready (src/serve/plan-ahead/keep-ready.ts), on a real SQLite memory. The planner here is
 * the same dry run in this thread instead of a worker (the thread itself is covered through `pie serve` in
 * serve-plan-ahead.test.ts).
 */
const NOW = Date.parse(NOW_TEXT);
const EVERY = 20;

let world: Awaited<ReturnType<typeof fixtureWorld>>;
let store: WorldStore;
let ahead: PlanAhead | null = null;
beforeEach(async () => {
  world = await fixtureWorld();
  store = await openSqliteStore({ path: world.db });
});
afterEach(async () => {
  await ahead?.stop();
  ahead = null;
  await store.close();
  world.cleanup();
});

let ids = 0;
const dryRun: ThreadPlanner = ({ scope, now, runId }) =>
  runSleep({ store, scope, dryRun: true, now, runId, newId: () => `id-${++ids}` });

function start(plans: SleepPlanCache, plan: ThreadPlanner, log: string[] = [], on: WorldStore = store): PlanAhead {
  ahead = startPlanAhead({
    store: on,
    plans,
    clock: { now: () => NOW },
    plan,
    newId: () => `run-${++ids}`,
    log: (m) => log.push(m),
    everyMs: EVERY,
  });
  return ahead;
}

async function until(test: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    if (await test()) return;
    await new Promise((r) => setTimeout(r, EVERY));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe('keeping a sleep preview ready', () => {
  it('plans a still memory once and keeps the plan a dry run at that instant makes (the same preview id)', async () => {
    const plans = new SleepPlanCache();
    let calls = 0;
    start(plans, (input) => {
      calls += 1;
      return dryRun(input);
    });
    const revision = await store.revision();
    await until(() => plans.fresh('full', revision, NOW) !== null, 'a plan is kept');
    const kept = plans.fresh('full', revision, NOW);
    const fresh = await runSleep({ store, scope: 'full', dryRun: true, now: NOW, runId: 'x', newId: () => 'y' });
    expect(kept?.previewId).toBe(sleepPreviewId(fresh, await store.stats()));
    await new Promise((r) => setTimeout(r, EVERY * 10));
    expect(calls).toBe(1);
  });

  it('keeps no plan of a memory that changed while it was planned, and plans it again once still', async () => {
    const plans = new SleepPlanCache();
    let calls = 0;
    const [entity] = await store.entities.list({ limit: 1 });
    start(plans, async (input) => {
      calls += 1;
      const report = await dryRun(input);
      // Another process writes while the first plan is being made.
      if (calls === 1) await store.entities.update(entity?.id ?? '', { importance: 0.42, updatedAt: NOW });
      return report;
    });
    await until(() => calls >= 2, 'it plans again');
    await ahead?.idle();
    const revision = await store.revision();
    expect(plans.fresh('full', revision, NOW)).not.toBeNull();
    expect(calls).toBe(2);
  });

  it('after a failure says so once and waits for the memory to change before trying again', async () => {
    const plans = new SleepPlanCache();
    const log: string[] = [];
    let calls = 0;
    start(
      plans,
      (input) => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error('disk unplugged')) : dryRun(input);
      },
      log,
    );
    await until(() => log.length > 0, 'the failure is logged');
    await new Promise((r) => setTimeout(r, EVERY * 10));
    expect(calls).toBe(1);
    expect(log).toEqual(['planning a sleep ahead failed (disk unplugged); previews plan on request.']);
    const [entity] = await store.entities.list({ limit: 1 });
    await store.entities.update(entity?.id ?? '', { importance: 0.3, updatedAt: NOW });
    await until(async () => plans.fresh('full', await store.revision(), NOW) !== null, 'a plan is kept');
    expect(calls).toBe(2);
  });

  it('plans nothing while an extraction holds its lease, and plans once it is released', async () => {
    const plans = new SleepPlanCache();
    let calls = 0;
    const holder = { id: 'ingest-1', pid: process.pid, host: 'here', purpose: 'pie ingest' };
    const taken = await store.leases.acquire({
      name: 'extraction',
      holder,
      now: Date.now(),
      ttlMs: 60_000,
      isDead: () => false,
    });
    expect(taken.taken).toBe(true);
    start(plans, (input) => {
      calls += 1;
      return dryRun(input);
    });
    await new Promise((r) => setTimeout(r, EVERY * 10));
    expect(calls).toBe(0);
    await store.leases.release({ name: 'extraction', holderId: holder.id });
    await until(async () => plans.fresh('full', await store.revision(), NOW) !== null, 'a plan is kept');
    expect(calls).toBe(1);
  });

  it('says once, not every interval, that the memory cannot be read', async () => {
    const log: string[] = [];
    const closed: WorldStore = { ...store, revision: () => Promise.reject(new Error('the database is closed')) };
    start(new SleepPlanCache(), dryRun, log, closed);
    await new Promise((r) => setTimeout(r, EVERY * 10));
    expect(log).toEqual(['checking the memory for a sleep plan failed: the database is closed']);
  });

  it('stop ends the plan being made (its signal aborts) and plans nothing after', async () => {
    const plans = new SleepPlanCache();
    let signal: AbortSignal | undefined;
    let calls = 0;
    const running = start(plans, (input) => {
      calls += 1;
      signal = input.signal;
      return new Promise((_, reject) => input.signal.addEventListener('abort', () => reject(new Error('ended'))));
    });
    await until(() => signal !== undefined, 'a plan starts');
    await running.stop();
    expect(signal?.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, EVERY * 5));
    expect(calls).toBe(1);
    expect(plans.fresh('full', await store.revision(), NOW)).toBeNull();
  });
});
