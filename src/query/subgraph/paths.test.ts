import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../adapters/store/sqlite/index.js';
import type { Relationship } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';
import { T0 } from '../test-kit.js';
import { findPaths } from './paths.js';

let dir = '';
let store: WorldStore;

function edge(id: string, sourceId: string, targetId: string, type = 'KNOWS'): Relationship {
  return {
    id,
    type,
    sourceId,
    targetId,
    properties: {},
    validFrom: T0,
    validTo: null,
    confidence: 0.8,
    episodeId: null,
    recordedAt: T0,
    discoveredBy: null,
  };
}

async function entity(id: string, type = 'person'): Promise<void> {
  await store.entities.insert({
    id,
    type,
    name: id,
    state: {},
    firstSeen: T0,
    lastSeen: T0,
    createdFrom: null,
    recordedAt: T0,
  });
}

/**
 * a ─HAPPENED_IN→ spring (a period) ←HAPPENED_IN─ b: two hops through a period; a → x → y → b: three hops through
 * people (a's edge to x is its oldest).
 */
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pie-paths-'));
  store = await openSqliteStore({ path: join(dir, 'pie.db'), clock: () => T0 });
  for (const id of ['a', 'b', 'x', 'y']) await entity(id);
  await entity('spring', 'period');
  await store.relationships.insert(edge('p1', 'a', 'spring', 'HAPPENED_IN'));
  await store.relationships.insert(edge('p2', 'b', 'spring', 'HAPPENED_IN'));
  await store.relationships.insert({ ...edge('ax', 'a', 'x'), validFrom: T0 - 500 });
  await store.relationships.insert(edge('xy', 'x', 'y'));
  await store.relationships.insert(edge('yb', 'y', 'b'));
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const route = (paths: Awaited<ReturnType<typeof findPaths>>) => paths.map((p) => p.map((h) => h.to.id).join(' → '));
const search = { from: 'a', to: 'b', maxHops: 4, maxPaths: 3, includeEnded: false };

describe('findPaths', () => {
  it('the shortest path, through a period when periods are allowed', async () => {
    expect(route(await findPaths({ store, ...search }))).toEqual(['spring → b']);
  });

  it('avoiding periods as hops: the longer path through people', async () => {
    expect(route(await findPaths({ store, ...search, avoidTypes: ['period'] }))).toEqual(['x → y → b']);
  });

  it('a period may still be the end of the path', async () => {
    const paths = await findPaths({ store, ...search, to: 'spring', avoidTypes: ['period'] });
    expect(route(paths)).toEqual(['spring']);
  });

  it('checks the type of every neighbour that may join the frontier, past the first chunk of types read', async () => {
    // a's 20 newer friends come before x in the frontier; each knows 4 periods, so the second hop reads 80 period
    // neighbours before x's: a period "late" that b also happened in, and y. Both give a three-hop path.
    for (let i = 0; i < 20; i++) {
      await entity(`q${i}`);
      await store.relationships.insert({ ...edge(`aq${i}`, 'a', `q${i}`), validFrom: T0 - 900 + i });
      for (let j = 0; j < 4; j++) {
        await entity(`period${i}-${j}`, 'period');
        await store.relationships.insert(edge(`qp${i}-${j}`, `q${i}`, `period${i}-${j}`, 'HAPPENED_IN'));
      }
    }
    await entity('late', 'period');
    await store.relationships.insert(edge('xl', 'x', 'late', 'HAPPENED_IN'));
    await store.relationships.insert(edge('bl', 'b', 'late', 'HAPPENED_IN'));
    const paths = await findPaths({ store, ...search, avoidTypes: ['period'] });
    expect(route(paths)).toEqual(['x → y → b']);
  });
});
