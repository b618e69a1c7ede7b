import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { searchWorld } from '../../src/query/search.js';
import { DAY, T0, addEntity, addEpisode, turn } from '../contracts/world-store/fixtures.js';

/**
 * `pie search`, the HTTP search and MCP `search` on real SQLite: an entity the text names leads the results, even
 * when many turns share its words (MemoryBank: "Doctor Who" listed ten turns about seeing a doctor and not the show).
 */
let dir = '';
let store: WorldStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pie-search-'));
  store = await openSqliteStore({ path: join(dir, 'pie.db'), clock: () => T0 });
  await addEntity(store, 'dw', { name: 'Doctor Who', type: 'movie', importance: 0.15 });
  await addEntity(store, 'linda', { name: 'Linda', type: 'person', importance: 0.7 });
  for (let i = 0; i < 6; i++) {
    await addEpisode(
      store,
      {
        externalId: `c${i}`,
        createdAt: T0 - i * DAY,
        updatedAt: T0 - i * DAY,
        turns: [
          turn('user', `I am thinking of seeing a doctor about my back, visit ${i}.`),
          turn('assistant', 'A doctor can check it; a doctor who knows backs is best.'),
        ],
      },
      `hash-${i}`,
    );
  }
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const search = (text: string, limit = 5) => searchWorld({ store, text, limit, now: T0 + DAY, tz: 'UTC' });

describe('search', () => {
  it('an entity the text names comes first, once, and the list keeps its limit', async () => {
    const { items } = await search('Doctor Who');
    expect(items[0]).toMatchObject({ kind: 'entity', entity: { name: 'Doctor Who' } });
    expect(items.filter((i) => i.kind === 'entity' && i.entity.name === 'Doctor Who')).toHaveLength(1);
    expect(items).toHaveLength(5);
    expect(items.slice(1).every((i) => i.kind === 'turn')).toBe(true);
  });

  it('with namedFirst off (the HTTP search, whose entity cards lead), the list is the fused ranking', async () => {
    const { items } = await searchWorld({
      store,
      text: 'Doctor Who',
      limit: 5,
      now: T0 + DAY,
      tz: 'UTC',
      namedFirst: false,
    });
    expect(items[0]?.kind).toBe('turn');
  });

  it('a text that names no entity is the fused list as it was', async () => {
    const { items } = await search('doctor back');
    expect(items.length).toBeGreaterThan(0);
    expect(items.some((i) => i.kind === 'entity')).toBe(false);
  });
});
