import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../adapters/store/sqlite/index.js';
import { GENERIC_RELATIONSHIP, type Relationship } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';
import { DAY, T0, entity, transition } from '../test-kit.js';
import { DEFAULT_BLOCK, loadEntityBlock, pickTransitions } from './entity-block.js';

const all = Array.from({ length: 20 }, (_, i) =>
  transition({
    id: `t${i}`,
    eventTime: T0 + i * DAY,
    kind: i === 0 ? 'creation' : i === 5 ? 'contradiction' : 'update',
  }),
);
const ids = (ts: { id: string }[]) => ts.map((t) => t.id);

describe('pickTransitions: current by default, history on request', () => {
  it('current mode shows the latest three changes plus any unresolved contradiction', () => {
    expect(ids(pickTransitions({ all, options: { history: false, maxTransitions: 12, maxRelationships: 8 } }))).toEqual(
      ['t5', 't17', 't18', 't19'],
    );
  });
  it('a resolved contradiction is history, not current', () => {
    const resolved = all.map((t) => (t.id === 't5' ? { ...t, resolvedBy: 'r' } : t));
    expect(
      ids(pickTransitions({ all: resolved, options: { history: false, maxTransitions: 12, maxRelationships: 8 } })),
    ).toEqual(['t17', 't18', 't19']);
  });
  it('history mode keeps the first transition and the most recent ones', () => {
    const shown = pickTransitions({ all, options: { history: true, maxTransitions: 5, maxRelationships: 8 } });
    expect(ids(shown)).toEqual(['t0', 't16', 't17', 't18', 't19']);
  });
  it('history mode with a range keeps only transitions inside it (end exclusive)', () => {
    const range = { start: T0 + 3 * DAY, end: T0 + 6 * DAY };
    const shown = pickTransitions({ all, options: { history: true, range, maxTransitions: 12, maxRelationships: 8 } });
    expect(ids(shown)).toEqual(['t3', 't4', 't5']);
  });
});

describe('loadEntityBlock on a real store', () => {
  let dir = '';
  let store: WorldStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pie-block-'));
    store = await openSqliteStore({ path: join(dir, 'pie.db'), clock: () => T0 });
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps a hub's typed edge when a sleep's newer co-mention links outnumber the block's room", async () => {
    const names = ['Tidepool', 'Maya', ...Array.from({ length: 10 }, (_, i) => `Thing ${i}`)];
    for (const name of names) {
      await store.entities.insert({ ...entity({ id: name, name }), createdFrom: null });
    }
    const edge = (id: string, targetId: string, type: string, validFrom: number): Relationship => ({
      id,
      type,
      sourceId: 'Tidepool',
      targetId,
      properties: {},
      validFrom,
      validTo: null,
      confidence: 0.8,
      episodeId: null,
      recordedAt: validFrom,
      discoveredBy: type === GENERIC_RELATIONSHIP ? 'micro-dream' : null,
    });
    await store.relationships.insert(edge('works', 'Maya', 'WORKS_ON', T0));
    for (let i = 0; i < 10; i++) {
      await store.relationships.insert(edge(`co${i}`, `Thing ${i}`, GENERIC_RELATIONSHIP, T0 + (i + 1) * DAY));
    }
    const hub = await store.entities.get('Tidepool');
    if (!hub) throw new Error('no hub');
    const block = await loadEntityBlock({ store, entity: hub, options: { ...DEFAULT_BLOCK, history: false } });
    const shown = block.relationships.map((r) => r.relationship.id);
    expect(shown).toHaveLength(DEFAULT_BLOCK.maxRelationships);
    // The typed edge leads; the newest co-mention links fill the rest.
    expect(shown).toEqual(['works', 'co9', 'co8', 'co7', 'co6', 'co5', 'co4', 'co3']);
  });
});
