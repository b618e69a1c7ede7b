import type { WorldStore } from '../ports/world-store.js';
import type { WorldExtraction } from './world.js';

export interface ProgressEvent {
  phase: 'ingest' | 'query';
  /** The sample or question being worked on. */
  label: string;
  done: number;
  total: number;
}

/** Options shared by the retrieval benchmarks. */
export interface RetrievalOptions {
  tz: string;
  /** The cut-offs of recall@k and NDCG@k. */
  ks: number[];
  /** At most this many LoCoMo conversations / LongMemEval questions (the first ones). */
  limit?: number | undefined;
  extraction: WorldExtraction;
  /** Opens a fresh, empty store for each world. */
  openStore: () => Promise<WorldStore>;
  /** Turns per chunk of the BM25 baseline. */
  chunkTurns: number;
  /** Token cap of each world's ingest (model extraction only). */
  budgetTokens?: number | undefined;
  onProgress?: (event: ProgressEvent) => void;
}

/** What is left of a run-wide token budget for the next world (undefined: no cap). */
export function remaining(budget: number | undefined, used: number): number | undefined {
  return budget === undefined ? undefined : Math.max(1, budget - used);
}
