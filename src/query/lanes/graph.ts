import { asksAcquaintance } from '../../compile/edge-cues.js';
import { isBareAcquaintance } from '../../domain/world.js';
import type { LaneHit, LaneResult } from '../types.js';
import type { LaneInput } from './types.js';

/**
 * Neighbours of the entities the question names (or, failing that, of the best entities other lanes found):
 * one hop over relationships, current ones unless the question wants history; stronger and more important
 * neighbours first. A bare acquaintance (the other speaker of a chat) leads only where the question asks who knows
 * whom: otherwise the person talked with would be every question's first neighbour.
 */
/** Edges read per seed (open first, newest first); a hub has thousands. */
const EDGES_PER_SEED = 200;

export async function graphLane(input: LaneInput & { seeds: readonly string[]; perSeed: number }): Promise<LaneResult> {
  const { store, settings, plan } = input;
  if (settings.limit === 0) return { lane: 'graph', hits: [], skipped: 'off for this intent' };
  if (input.seeds.length === 0) return { lane: 'graph', hits: [], skipped: 'no entity to expand from' };
  const seedSet = new Set(input.seeds);
  const weights = new Map<string, number>();
  // Every seed's edges are read side by side (a server store runs them at once), then weighed in seed order.
  const edgesOf = await Promise.all(
    input.seeds.map((seed) =>
      store.relationships.forEntity(seed, {
        includeEnded: plan.wantsHistory,
        excludeTypes: ['DURING'],
        limit: EDGES_PER_SEED,
      }),
    ),
  );
  const acquaintances = asksAcquaintance(plan.question);
  for (const [i, seed] of input.seeds.entries()) {
    const edges = (edgesOf[i] ?? []).filter((r) => acquaintances || !isBareAcquaintance(r));
    const ranked = edges
      .map((r) => ({ other: r.sourceId === seed ? r.targetId : r.sourceId, w: r.confidence }))
      .filter((x) => !seedSet.has(x.other))
      .sort((a, b) => b.w - a.w || (a.other < b.other ? -1 : 1))
      .slice(0, input.perSeed);
    for (const { other, w } of ranked) weights.set(other, Math.max(weights.get(other) ?? 0, w));
  }
  const neighbours = (await store.entities.getMany([...weights.keys()])).filter((e) => e.tier !== 'archived');
  const hits: LaneHit[] = neighbours
    .map((e) => ({ e, s: (weights.get(e.id) ?? 0) * e.importance }))
    .sort((a, b) => b.s - a.s || (a.e.id < b.e.id ? -1 : 1))
    .slice(0, settings.limit)
    .map(({ e }) => ({ ref: { kind: 'entity', id: e.id }, time: e.lastSeen, importance: e.importance }));
  return { lane: 'graph', hits };
}
