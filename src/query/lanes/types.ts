import type { Embedder } from '../../ports/embedder.js';
import type { WorldStore } from '../../ports/world-store.js';
import type { LaneSettings } from '../presets.js';
import type { LaneResult, QueryPlan } from '../types.js';

export interface LaneInput {
  store: WorldStore;
  plan: QueryPlan;
  settings: LaneSettings;
  now: number;
  embedder?: Embedder | undefined;
}

export type Lane = (input: LaneInput) => Promise<LaneResult>;

export const DEFAULT_IMPORTANCE = 0.5;
