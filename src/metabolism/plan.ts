import { isSchemaEntity, type Tier } from '../domain/world.js';
import type { GraphNode } from '../ports/maintenance-store.js';
import type { WorldStore } from '../ports/world-store.js';
import { computeImportance, type ImportanceWeights } from './importance.js';
import { activityNow, recencyDays, tierFor, type TierThresholds } from './tiers.js';

export const SCOPES = ['daydream', 'quick', 'full'] as const;
export type SleepScope = (typeof SCOPES)[number];

export interface ImportanceChange {
  entityId: string;
  from: number;
  to: number;
}

export interface TierChange {
  entityId: string;
  from: Tier;
  to: Tier;
  importance: number;
  recencyDays: number;
}

export interface SalienceResult {
  nodes: GraphNode[];
  importance: ImportanceChange[];
  tiers: TierChange[];
  iterations: number;
  converged: boolean;
  /** Entities with no current relationship. */
  isolated: number;
  meanImportance: number;
}

/** Stored importance keeps 4 decimals, so recomputing an unchanged world changes nothing. */
export function roundImportance(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/** Salience scoring and tier assignment over the whole graph: reads only. */
export async function planSalience(input: {
  store: WorldStore;
  now: number;
  weights?: ImportanceWeights;
  thresholds?: TierThresholds;
}): Promise<SalienceResult> {
  // The person's world only: KIP's schema (its links to CoreSchema) would weigh in the degrees of everything else.
  // Its entities keep no importance (a sleep before this rule had scored CoreSchema first of all).
  const all = await input.store.upkeep.graphNodes();
  const nodes = all.filter((n) => !isSchemaEntity(n));
  const importance: ImportanceChange[] = all
    .filter((n) => isSchemaEntity(n) && n.importance !== 0)
    .map((n) => ({ entityId: n.id, from: n.importance, to: 0 }));
  const edges = await input.store.upkeep.graphEdges();
  const now = activityNow({ now: input.now, latestEpisodeAt: (await input.store.stats()).lastEpisodeAt });
  const result = computeImportance({
    nodes: nodes.map((n) => ({
      id: n.id,
      recencyDays: recencyDays(n.lastSeen, now),
      transitions: n.transitions,
      accessCount: n.accessCount,
    })),
    edges,
    ...(input.weights ? { weights: input.weights } : {}),
  });
  const tiers: TierChange[] = [];
  let isolated = 0;
  let sum = 0;
  for (const node of nodes) {
    const to = roundImportance(result.scores.get(node.id) ?? 0);
    sum += to;
    if ((result.degrees.get(node.id) ?? 0) === 0) isolated += 1;
    if (Math.abs(to - node.importance) >= 0.0001) importance.push({ entityId: node.id, from: node.importance, to });
    const days = recencyDays(node.lastSeen, now);
    const tier = tierFor(
      { importance: to, recencyDays: days, type: node.type, protected: node.protected },
      input.thresholds,
    );
    if (tier !== node.tier) {
      tiers.push({
        entityId: node.id,
        from: node.tier as Tier,
        to: tier,
        importance: to,
        recencyDays: Math.floor(days),
      });
    }
  }
  return {
    nodes,
    importance,
    tiers,
    iterations: result.iterations,
    converged: result.converged,
    isolated,
    meanImportance: nodes.length === 0 ? 0 : roundImportance(sum / nodes.length),
  };
}
