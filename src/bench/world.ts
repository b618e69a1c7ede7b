import type { Conversation } from '../domain/conversation.js';
import type { Extractor } from '../extract/types.js';
import type { ImportEvent } from '../import/types.js';
import { runImportStage } from '../ingest/import-stage.js';
import { runIngest, type IngestSummary } from '../ingest/pipeline.js';
import type { Embedder } from '../ports/embedder.js';
import type { WorldStore } from '../ports/world-store.js';
import type { MatchVerifier } from '../resolve/resolver.js';

/** What builds a world: the extractor and its companions (from createExtraction, or the offline rules in tests). */
export interface WorldExtraction {
  extractor: Extractor;
  verifier?: MatchVerifier | undefined;
  embedder?: Embedder | undefined;
}

export interface BenchWorld {
  store: WorldStore;
  ingest: IngestSummary;
  /** episode id → its conversation's externalId (LoCoMo "conv-26:session_3", LongMemEval session id). */
  sessionOf: Map<string, string>;
  /** "episodeId#seq" → the turn's externalId (LoCoMo dia_id), or "session#seq" when the turn has none. */
  turnIdOf: Map<string, string>;
  close(): Promise<void>;
}

async function* events(conversations: readonly Conversation[]): AsyncIterable<ImportEvent> {
  for (const conversation of conversations) yield { kind: 'conversation', conversation, dropped: {} };
}

/**
 * Ids in creation order, the same on every run (UUID-shaped): the query breaks score ties by id, so random ids made
 * two runs of one benchmark differ by a few questions.
 */
export function sequentialIds(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
}

/**
 * One benchmark conversation (LoCoMo) or question (LongMemEval) → its own world in an in-memory database: the same
 * import and ingest stages `pie ingest` runs, so users and benchmarks share one path.
 */
export async function buildWorld(input: {
  conversations: readonly Conversation[];
  extraction: WorldExtraction;
  tz: string;
  label: string;
  /** A fresh, empty store (the CLI passes an in-memory SQLite database from compose). */
  openStore: () => Promise<WorldStore>;
  budgetTokens?: number | undefined;
  maxBatchTokens?: number;
}): Promise<BenchWorld> {
  const store = await input.openStore();
  try {
    const clock = { now: () => Date.now() };
    await runImportStage({ store, events: events(input.conversations), clock, tz: input.tz, dryRun: false });
    const ingest = await runIngest({
      store,
      extractor: input.extraction.extractor,
      verifier: input.extraction.verifier,
      embedder: input.extraction.embedder,
      clock,
      newId: sequentialIds(),
      source: input.label,
      tz: input.tz,
      maxBatchTokens: input.maxBatchTokens ?? 12_000,
      concurrency: input.extraction.extractor.kind === 'llm' ? 4 : 1,
      budgetTokens: input.budgetTokens,
    });
    const sessionOf = new Map<string, string>();
    const turnIdOf = new Map<string, string>();
    for (const episode of await store.episodes.list()) {
      sessionOf.set(episode.id, episode.externalId);
      for (const turn of await store.episodes.turns(episode.id)) {
        turnIdOf.set(`${episode.id}#${turn.seq}`, turn.externalId ?? `${episode.externalId}#${turn.seq}`);
      }
    }
    return { store, ingest, sessionOf, turnIdOf, close: () => store.close() };
  } catch (error) {
    await store.close();
    throw error;
  }
}
