import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { KEPT_PLAN_MAX_AGE_MS } from '../../src/metabolism/plan-cache.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { apiPerTest, NOW as NOW_TEXT, previewLines } from './harness.js';

/**
 * A sleep preview is kept while it is still the memory's (src/serve/http/sleep-plans.ts): the next preview shows it
 * at once, and applying it needs no second planning. What must never happen is a kept plan shown or applied for a
 * memory that changed — through this server, or another process on the same file — or for a clock set back.
 */
interface SleepOut {
  now: string;
  kept: boolean;
  previewId: string | null;
  phases: { name: string; changes: number }[];
}

const NOW = Date.parse(NOW_TEXT);
const fx = apiPerTest();
const preview = (body: Record<string, unknown> = {}) =>
  fx.api.post<SleepOut>('/api/sleep', { scope: 'full', dry_run: true, ...body });
const setClock = (t: number): void => {
  fx.api.deps.clock = { now: () => t };
};

/** Another connection to the same file, as another process would open it. */
async function otherProcess<T>(fn: (store: WorldStore) => Promise<T>): Promise<T> {
  const store = await openSqliteStore({ path: fx.world.db });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

describe('kept sleep plans', () => {
  it('a second preview of an unchanged memory is the first plan, kept: same id and instant, though the clock moved', async () => {
    const first = await preview();
    expect(first.body.kept).toBe(false);
    setClock(NOW + 5 * 60_000);
    const second = await preview();
    expect(second.body).toMatchObject({ kept: true, previewId: first.body.previewId, now: first.body.now });
    expect(second.body.phases).toEqual(first.body.phases);
    // The stream shows the same kept plan.
    const { lines } = await previewLines(fx.api, { scope: 'full' });
    expect(lines[0]).toMatchObject({ type: 'start', kept: true, now: first.body.now });
    expect(lines.at(-1)).toMatchObject({ type: 'done', previewId: first.body.previewId });
  });

  it('is planned again after a write through the server, and replan skips a kept plan', async () => {
    const first = await preview();
    expect((await fx.api.post('/api/episodes', { content: 'I adopted a cat named Miso.' })).status).toBe(200);
    const after = await preview();
    expect(after.body.kept).toBe(false);
    expect(after.body.previewId).not.toBe(first.body.previewId);
    expect((await preview()).body.kept).toBe(true);
    const { lines } = await previewLines(fx.api, { scope: 'full', replan: true });
    expect(lines[0]).toMatchObject({ type: 'start', kept: false });
  });

  it('is planned again after another process wrote to the same file, and its id is then refused (409)', async () => {
    const first = await preview();
    await otherProcess(async (s) => {
      // A new entity: a change every plan sees (the world's counts are part of a preview's identity).
      await s.entities.insert({
        id: 'from-another-process',
        type: 'tool',
        name: 'Zettelkasten',
        normalizedName: 'zettelkasten',
        state: {},
        firstSeen: NOW,
        lastSeen: NOW,
        createdFrom: null,
        recordedAt: NOW,
      });
    });
    expect((await preview()).body.kept).toBe(false);
    const applied = await fx.api.post('/api/sleep', {
      scope: 'full',
      dry_run: false,
      preview_id: first.body.previewId,
    });
    expect(applied.status).toBe(409);
  });

  it('is planned again when the clock is set back before it, or when it is older than its maximum age', async () => {
    const first = await preview();
    setClock(NOW - 60_000);
    const back = await preview();
    expect(back.body.kept).toBe(false);
    expect(back.body.now).not.toBe(first.body.now);
    setClock(NOW - 60_000 + KEPT_PLAN_MAX_AGE_MS + 1);
    expect((await preview()).body.kept).toBe(false);
  });

  it('applies a kept plan of an unchanged memory exactly, at its instant, without planning it again', async () => {
    const first = await preview();
    setClock(NOW + 60_000);
    let plannedAgain = 0;
    const store = fx.api.deps.store;
    // Planning again reads the world's counts through the route's store (the dry run, then the preview id); the
    // apply itself reads inside its own transaction.
    fx.api.deps.store = {
      ...store,
      stats: () => {
        plannedAgain += 1;
        return store.stats();
      },
    };
    const applied = await fx.api.post<SleepOut>('/api/sleep', {
      scope: 'full',
      dry_run: false,
      preview_id: first.body.previewId,
    });
    expect(applied.status).toBe(200);
    expect(applied.body.now).toBe(first.body.now);
    expect(applied.body.phases.map((p) => [p.name, p.changes])).toEqual(
      first.body.phases.map((p) => [p.name, p.changes]),
    );
    expect(plannedAgain).toBe(0);
  });
});
