import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../adapters/store/sqlite/index.js';
import type { WorldStore } from '../../ports/world-store.js';
import { diffWorld } from './diff.js';
import { snapshotAt } from './snapshot.js';
import { resolveSpan } from './span.js';
import { createRng } from '../../domain/prng.js';

/**
 * Snapshots and diffs agree in every direction (issue 15, item 2), on random worlds: for random instants a and b,
 * diff(a, b) counts the entities of snapshot(a) and snapshot(b), its "new" list is exactly what snapshot(b) has and
 * snapshot(a) has not, and archiving (a tier of attention) never removes an entity from a snapshot.
 */
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const random = createRng;

async function randomWorld(seed: number): Promise<{ store: WorldStore; days: number }> {
  const dir = mkdtempSync(join(tmpdir(), `pie-agree-${seed}-`));
  dirs.push(dir);
  const store = await openSqliteStore({ path: join(dir, 'pie.db') });
  const rnd = random(seed);
  const days = 300;
  const n = 20 + Math.floor(rnd() * 40);
  for (let i = 0; i < n; i++) {
    const first = T0 + Math.floor(rnd() * days) * DAY;
    const id = `e${i}`;
    await store.entities.insert({
      id,
      type: ['person', 'project', 'tool', 'place'][Math.floor(rnd() * 4)] ?? 'concept',
      name: `Entity ${seed}-${i}`,
      state: {},
      firstSeen: first,
      lastSeen: first + Math.floor(rnd() * 30) * DAY,
      createdFrom: null,
      recordedAt: first,
      importance: rnd(),
    });
    const fate = rnd();
    if (fate < 0.4) {
      // Archived some time after it was first seen, as a sleep does (an archival transition, then the tier).
      const at = first + (1 + Math.floor(rnd() * 120)) * DAY;
      await store.transitions.insert({
        id: `arch-${id}`,
        entityId: id,
        kind: 'archival',
        fromState: {},
        toState: {},
        summary: 'Archived.',
        eventTime: at,
        recordedAt: at,
        confidence: 1,
        episodeId: null,
        batchId: null,
        resolvedBy: null,
      });
      await store.entities.update(id, { tier: 'archived', updatedAt: at });
    } else if (fate < 0.55) {
      await store.entities.update(id, { tier: 'summarized', updatedAt: first });
    }
  }
  return { store, days };
}

describe('snapshot and diff agree', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('on random world %i, for random instants', async (seed) => {
    const { store, days } = await randomWorld(seed);
    const rnd = random(seed * 7919);
    const day = (d: number) => new Date(T0 + d * DAY).toISOString().slice(0, 10);
    for (let k = 0; k < 6; k++) {
      const x = Math.floor(rnd() * (days + 160));
      const y = Math.floor(rnd() * (days + 160));
      const now = T0 + (days + 200) * DAY;
      const a = resolveSpan({ text: day(Math.min(x, y)), periods: [], now, tz: 'UTC' });
      const b = resolveSpan({ text: day(Math.max(x, y)), periods: [], now, tz: 'UTC' });
      const [sa, sb, diff] = await Promise.all([
        snapshotAt({ store, at: a.at, limit: 1000 }),
        snapshotAt({ store, at: b.at, limit: 1000 }),
        diffWorld({ store, a, b, limit: 1000 }),
      ]);
      expect(diff.entities).toEqual({ before: sa.total, after: sb.total });
      expect(diff.created.total).toBe(sb.total - sa.total);
      const inA = new Set(sa.entities.map((e) => e.id));
      expect(diff.created.items.map((e) => e.id).sort()).toEqual(
        sb.entities
          .filter((e) => !inA.has(e.id))
          .map((e) => e.id)
          .sort(),
      );
      expect(sa.byTier.active + sa.byTier.summarized + sa.byTier.archived).toBe(sa.total);
      // Nothing that existed at a is missing at b: archiving is a tier, not an end.
      const inB = new Set(sb.entities.map((e) => e.id));
      expect([...inA].every((id) => inB.has(id))).toBe(true);
    }
    await store.close();
  });
});
