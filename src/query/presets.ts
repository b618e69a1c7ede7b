import type { Intent, LaneName } from './types.js';

/**
 * Retrieval presets are data (DESIGN.md §5): which lanes run, how many hits each may return, how much each lane's
 * ranks count in reciprocal-rank fusion, and the re-scoring weights. The defaults follow the flowcharts' retriever
 * (0.65 similarity, 0.30 importance, 0.05 recency; importance ≥ 0.75 is a landmark that never decays; recency halves
 * every 365 days).
 */
export interface LaneSettings {
  /** Hits the lane may return. 0 turns the lane off. */
  limit: number;
  /** Multiplier on the lane's reciprocal-rank contribution. */
  weight: number;
}

export interface Scoring {
  similarity: number;
  importance: number;
  recency: number;
  /** Importance at or above this never decays with age. */
  landmarkFloor: number;
  halfLifeDays: number;
}

export interface RetrievalPreset {
  lanes: Record<LaneName, LaneSettings>;
  /** The k of reciprocal-rank fusion: 1 / (k + rank). */
  rrfK: number;
  /** Fused items kept. */
  topK: number;
  scoring: Scoring;
  /** How many seed entities graph expansion starts from, and neighbours per seed. */
  graph: { seeds: number; perSeed: number };
}

export const DEFAULT_SCORING: Scoring = {
  similarity: 0.65,
  importance: 0.3,
  recency: 0.05,
  landmarkFloor: 0.75,
  halfLifeDays: 365,
};

const BASE: RetrievalPreset = {
  lanes: {
    recent: { limit: 3, weight: 0.5 },
    // Outside temporal_diff the time a question names narrows the evidence rather than being the evidence:
    // everything recorded in "last week" with none of the question's words should not outrank what has them.
    temporal: { limit: 20, weight: 0.5 },
    lexical: { limit: 20, weight: 1 },
    vector: { limit: 20, weight: 1 },
    graph: { limit: 10, weight: 0.5 },
  },
  rrfK: 60,
  topK: 24,
  scoring: DEFAULT_SCORING,
  graph: { seeds: 3, perSeed: 5 },
};

function preset(overrides: {
  lanes?: Partial<Record<LaneName, Partial<LaneSettings>>>;
  topK?: number;
}): RetrievalPreset {
  const lanes = { ...BASE.lanes };
  for (const [name, settings] of Object.entries(overrides.lanes ?? {}) as [LaneName, Partial<LaneSettings>][]) {
    lanes[name] = { ...lanes[name], ...settings };
  }
  return { ...BASE, lanes, topK: overrides.topK ?? BASE.topK };
}

/** One preset per intent; the intent's own subgraph comes first and these fill in the evidence around it. */
export const PRESETS: Record<Intent, RetrievalPreset> = {
  general: BASE,
  entity_lookup: preset({ lanes: { graph: { limit: 15, weight: 1 } } }),
  current_state: preset({ lanes: { recent: { limit: 5, weight: 1 }, graph: { limit: 15, weight: 1 } } }),
  temporal_diff: preset({ lanes: { temporal: { limit: 40, weight: 1.5 } }, topK: 30 }),
  relationship: preset({ lanes: { graph: { limit: 20, weight: 1.5 } } }),
  procedural: preset({ lanes: { recent: { limit: 0 } }, topK: 16 }),
  contradiction: preset({ lanes: { recent: { limit: 0 } }, topK: 16 }),
};
