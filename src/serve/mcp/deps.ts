import type { EpisodeExtraction } from '../../ingest/ingest-text.js';
import type { Clock } from '../../ports/clock.js';
import type { Embedder } from '../../ports/embedder.js';
import type { WorldStore } from '../../ports/world-store.js';
import type { CountTokens } from './budget.js';

export type { EpisodeExtraction } from '../../ingest/ingest-text.js';

/** Everything the MCP server needs, built by the `pie mcp` command from the composed services (no adapters here). */
export interface McpDeps {
  store: WorldStore;
  clock: Clock;
  /** IANA zone for day boundaries and dates in text (`--tz`). */
  tz: string;
  newId: () => string;
  /** `--read-only`: no writing tools, and no access counting. */
  readOnly: boolean;
  /** Token budget of one response (`--max-tokens`). */
  maxTokens: number;
  countTokens: CountTokens;
  /** The query embedder (PIE_EMBEDDER), for the vector lane. */
  embedder?: Embedder | undefined;
  /** The extraction for ingest_episode, created on first use. Required unless read-only. */
  extraction?: (() => Promise<EpisodeExtraction>) | undefined;
  /** How long ingest_episode waits for another process's extraction before it answers (default 30 s). */
  leaseWaitMs?: number | undefined;
  /** Diagnostics; never stdout (stdio mode speaks the protocol there). */
  log: (message: string) => void;
  version: string;
}
