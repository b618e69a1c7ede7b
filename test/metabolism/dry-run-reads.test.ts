import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { sleepPreviewId } from '../../src/metabolism/preview-id.js';
import { runSleep, type SleepReport } from '../../src/metabolism/sleep.js';
import { withSharedReads } from '../../src/metabolism/shared-reads.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { tempDir } from '../helpers/cli.js';
import { applyPhasesWorld, PHASES_NOW } from './phases-world.js';

const NOW = Date.parse(`${PHASES_NOW}T00:00:00Z`);

/** `target` with some of its methods replaced (the rest bound to it). */
function override<T extends object>(target: T, methods: Record<string, unknown>): T {
  return new Proxy(target, {
    get: (t, key) => {
      if (typeof key === 'string' && key in methods) return methods[key];
      const value: unknown = Reflect.get(t, key, t);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  });
}

/**
 * The store as the sleep read it before its reads were batched and shared: each batched read made one entity at a
 * time with the per-entity reads over the entity's whole history and mentions, and every read counted.
 */
function freshReads(store: WorldStore, calls: Map<string, number>): WorldStore {
  const count = (name: string) => calls.set(name, (calls.get(name) ?? 0) + 1);
  const each = async <T>(wanted: readonly { entityId: string; since: number }[], read: (id: string) => Promise<T[]>) =>
    (await Promise.all(wanted.map((w) => read(w.entityId)))).flat();
  return override(store, {
    stats: () => (count('stats'), store.stats()),
    upkeep: override(store.upkeep, {
      graphEdges: () => (count('graphEdges'), store.upkeep.graphEdges()),
    }),
    transitions: override(store.transitions, {
      forEntitiesSince: (wanted: { entityId: string; since: number }[]) =>
        each(wanted, (id) => store.transitions.forEntity(id)),
    }),
    mentions: override(store.mentions, {
      forEntitiesSince: (wanted: { entityId: string; since: number }[]) =>
        each(wanted, (id) => store.mentions.forEntity(id)),
    }),
    facts: override(store.facts, {
      currentOf: async (ids: string[]) => (await Promise.all(ids.map((id) => store.facts.current(id)))).flat(),
    }),
  });
}

describe('the dry run reads batched and shared, and plans what one-by-one reads plan', () => {
  let dir: { dir: string; cleanup: () => void };
  let store: WorldStore;

  beforeEach(async () => {
    dir = tempDir('pie-dry-reads-');
    const db = await applyPhasesWorld(dir.dir);
    store = await openSqliteStore({ path: db });
  });
  afterEach(async () => {
    await store.close();
    dir.cleanup();
  });

  const dryRun = (s: WorldStore): Promise<SleepReport> => {
    let n = 0;
    return runSleep({ store: s, scope: 'full', dryRun: true, now: NOW, runId: 'dry', newId: () => `id-${n++}` });
  };

  it('gives the same report and preview id as whole per-entity reads, reading counts and edges once', async () => {
    const calls = new Map<string, number>();
    const fresh = await dryRun(freshReads(store, calls));
    const direct = await dryRun(store);
    // The world has open contradictions the phase settles and leaves open: the batched reads are exercised.
    const contradictions = direct.phases.find((p) => p.name === 'contradiction supersession');
    expect(contradictions?.changes).toBeGreaterThan(0);
    expect(contradictions?.issues?.length).toBeGreaterThan(0);
    expect(direct).toEqual(fresh);
    const stats = await store.stats();
    expect(sleepPreviewId(direct, stats)).toBe(sleepPreviewId(fresh, stats));
    // Salience, decay and health read the counts; salience (and dreams, with a model) the current edges: once
    // each per run. Micro dreams read the pairs ever linked instead.
    expect(Object.fromEntries(calls)).toEqual({ stats: 1, graphEdges: 1 });
  });

  it('shares only within one wrapped store: a new run reads again', async () => {
    const calls = new Map<string, number>();
    const counted = freshReads(store, calls);
    const shared = withSharedReads(counted);
    expect(await shared.stats()).toEqual(await store.stats());
    expect(await shared.stats()).toEqual(await store.stats());
    expect(await shared.upkeep.graphEdges()).toEqual(await store.upkeep.graphEdges());
    expect(await withSharedReads(counted).stats()).toEqual(await store.stats());
    expect(Object.fromEntries(calls)).toEqual({ stats: 2, graphEdges: 1 });
    // Everything else goes to the store as it is.
    expect(await shared.entities.count()).toBe(await store.entities.count());
  });
});
