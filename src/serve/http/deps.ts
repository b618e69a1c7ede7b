import type { EpisodeExtraction } from '../../ingest/ingest-text.js';
import type { SleepPlanCache } from '../../metabolism/plan-cache.js';
import type { Clock } from '../../ports/clock.js';
import type { Embedder } from '../../ports/embedder.js';
import type { LlmClient } from '../../llm/index.js';
import type { Tokenizer } from '../../ports/tokenizer.js';
import type { WorldStore } from '../../ports/world-store.js';

/** The model that answers chat questions, with a description for the UI; null when none is configured. */
export interface QueryModel {
  client: LlmClient;
  description: string;
}

/** Everything the HTTP API needs, built by `pie serve` from the composed services (no adapters here). */
export interface HttpDeps {
  store: WorldStore;
  clock: Clock;
  /** IANA zone for day boundaries and dates in compiled text (`--tz`). */
  tz: string;
  newId: () => string;
  /** `--read-only`: the writing routes answer 403 and the database is opened read-only. */
  readOnly: boolean;
  /** The query embedder (PIE_EMBEDDER), for the vector lane. */
  embedder?: Embedder | undefined;
  /** The extraction for statements stored from chat, created on first use. Required unless read-only. */
  extraction?: (() => Promise<EpisodeExtraction>) | undefined;
  /** The model for answers (`--llm`, PIE_LLM, an API key), created on first use; null = answer with the context. */
  queryModel: () => Promise<QueryModel | null>;
  /** Counts the tokens of compiled contexts (the project's tokenizer); an estimate without one. */
  tokenizer?: Tokenizer;
  /** The database's key (PIE_DB_KEY): a downloaded backup is encrypted with it. */
  backupKey?: string | undefined;
  /** The sleep plans kept for the next preview while they are still the memory's (see sleep-plans.ts). */
  plans: SleepPlanCache;
  /** Diagnostics (stderr). */
  log: (message: string) => void;
  version: string;
}
