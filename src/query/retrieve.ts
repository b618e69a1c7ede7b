import type { Embedder } from '../ports/embedder.js';
import type { WorldStore } from '../ports/world-store.js';
import { fuse } from './fusion.js';
import { graphLane } from './lanes/graph.js';
import { lexicalLane } from './lanes/lexical.js';
import { recentLane } from './lanes/recent.js';
import { temporalLane } from './lanes/temporal.js';
import { vectorLane } from './lanes/vector.js';
import type { RetrievalPreset } from './presets.js';
import type { LaneName, LaneResult, QueryPlan, RankedItem } from './types.js';

export interface Retrieval {
  items: RankedItem[];
  lanes: LaneResult[];
}

/**
 * Hybrid retrieval (DESIGN.md §5): the recent, temporal, lexical and vector lanes run side by side; graph expansion
 * then starts from the named entities (or the best entities the other lanes found); reciprocal-rank fusion and
 * importance/recency re-scoring give one ranked list.
 */
export async function retrieve(input: {
  store: WorldStore;
  plan: QueryPlan;
  preset: RetrievalPreset;
  now: number;
  embedder?: Embedder | undefined;
}): Promise<Retrieval> {
  const { store, plan, preset, now, embedder } = input;
  const base = { store, plan, now, embedder };
  const first = await Promise.all([
    recentLane({ ...base, settings: preset.lanes.recent }),
    temporalLane({ ...base, settings: preset.lanes.temporal }),
    lexicalLane({ ...base, settings: preset.lanes.lexical }),
    vectorLane({ ...base, settings: preset.lanes.vector }),
  ]);
  const seeds = plan.entityIds.length > 0 ? plan.entityIds : topEntities(first, preset.graph.seeds);
  const graph = await graphLane({
    ...base,
    settings: preset.lanes.graph,
    seeds: seeds.slice(0, preset.graph.seeds),
    perSeed: preset.graph.perSeed,
  });
  const lanes = [...first, graph];
  return { items: fuse({ lanes, preset, now }), lanes };
}

export interface LaneSummary {
  lane: LaneName;
  hits: number;
  skipped?: string;
}

/** Per lane: how many hits, or why it was skipped (for --json output and diagnostics). */
export function summarizeLanes(lanes: readonly LaneResult[]): LaneSummary[] {
  return lanes.map((l) => ({ lane: l.lane, hits: l.hits.length, ...(l.skipped ? { skipped: l.skipped } : {}) }));
}

/** The best-ranked entities across lanes, taking each lane's first entity before any lane's second. */
function topEntities(lanes: readonly LaneResult[], n: number): string[] {
  const perLane = lanes.map((l) => l.hits.flatMap((h) => (h.ref.kind === 'entity' ? [h.ref.id] : [])));
  const out: string[] = [];
  for (let i = 0; out.length < n && perLane.some((ids) => i < ids.length); i++) {
    for (const ids of perLane) {
      const id = ids[i];
      if (id !== undefined && !out.includes(id) && out.length < n) out.push(id);
    }
  }
  return out;
}
