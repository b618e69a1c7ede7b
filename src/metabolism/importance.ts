/**
 * Graph-structural importance (pie-paper §4.3):
 *
 *   I(e) = 0.25·d(e)/d_max + 0.20·min(|T_e|/10, 1) + 0.20·1/(1 + r(e)/30) + 0.20·mean I(N(e)) + 0.15·min(a(e)/5, 1)
 *
 * The neighbour term makes it recursive; it is solved by fixed-point iteration (like PageRank). The map is a
 * contraction with factor `weights.neighbours` (< 1), so the iteration converges from any start.
 */

export interface ImportanceWeights {
  degree: number;
  transitions: number;
  recency: number;
  neighbours: number;
  access: number;
}

export const PAPER_WEIGHTS: ImportanceWeights = {
  degree: 0.25,
  transitions: 0.2,
  recency: 0.2,
  neighbours: 0.2,
  access: 0.15,
};

export interface ImportanceNode {
  id: string;
  /** Days since the entity was last referenced (≥ 0). */
  recencyDays: number;
  transitions: number;
  accessCount: number;
}

export interface ImportanceInput {
  nodes: readonly ImportanceNode[];
  /** Undirected edges by node id; self-loops, repeats and edges to unknown ids are ignored. */
  edges: readonly { sourceId: string; targetId: string }[];
  weights?: ImportanceWeights;
  /** Stop when no score moves more than this. Default 1e-6. */
  tolerance?: number;
  /** Default 100. */
  maxIterations?: number;
}

export interface ImportanceResult {
  scores: Map<string, number>;
  degrees: Map<string, number>;
  iterations: number;
  converged: boolean;
  /** The largest change in the last iteration. */
  delta: number;
}

/** Builds de-duplicated undirected adjacency lists over node indexes. */
function adjacency(input: ImportanceInput, index: Map<string, number>): number[][] {
  const sets = input.nodes.map(() => new Set<number>());
  for (const edge of input.edges) {
    const a = index.get(edge.sourceId);
    const b = index.get(edge.targetId);
    if (a === undefined || b === undefined || a === b) continue;
    sets[a]?.add(b);
    sets[b]?.add(a);
  }
  return sets.map((s) => [...s].sort((x, y) => x - y));
}

export function computeImportance(input: ImportanceInput): ImportanceResult {
  const w = input.weights ?? PAPER_WEIGHTS;
  const tolerance = input.tolerance ?? 1e-6;
  const maxIterations = input.maxIterations ?? 100;
  const n = input.nodes.length;
  const index = new Map<string, number>();
  input.nodes.forEach((node, i) => index.set(node.id, i));
  const adj = adjacency(input, index);
  const dMax = adj.reduce((m, list) => Math.max(m, list.length), 0);

  const base = new Float64Array(n);
  input.nodes.forEach((node, i) => {
    const d = adj[i]?.length ?? 0;
    base[i] =
      w.degree * (dMax === 0 ? 0 : d / dMax) +
      w.transitions * Math.min(node.transitions / 10, 1) +
      w.recency * (1 / (1 + Math.max(0, node.recencyDays) / 30)) +
      w.access * Math.min(node.accessCount / 5, 1);
  });

  let current = Float64Array.from(base);
  let next = new Float64Array(n);
  let iterations = 0;
  let delta = 0;
  let converged = n === 0;
  while (!converged && iterations < maxIterations) {
    iterations += 1;
    delta = 0;
    for (let i = 0; i < n; i += 1) {
      const neighbours = adj[i] ?? [];
      let sum = 0;
      for (const j of neighbours) sum += current[j] ?? 0;
      const mean = neighbours.length === 0 ? 0 : sum / neighbours.length;
      const value = (base[i] ?? 0) + w.neighbours * mean;
      next[i] = value;
      delta = Math.max(delta, Math.abs(value - (current[i] ?? 0)));
    }
    [current, next] = [next, current];
    converged = delta <= tolerance;
  }

  const scores = new Map<string, number>();
  const degrees = new Map<string, number>();
  input.nodes.forEach((node, i) => {
    scores.set(node.id, current[i] ?? 0);
    degrees.set(node.id, adj[i]?.length ?? 0);
  });
  return { scores, degrees, iterations, converged, delta };
}
