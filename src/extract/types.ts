import type { EntityState, TransitionKind } from '../domain/world.js';
import type { ExtractionResult } from './result.js';

/** One conversation as an extractor sees it. */
export interface BatchEpisode {
  id: string;
  title: string;
  /** Epoch ms. */
  createdAt: number;
  model: string | null;
  turns: { role: 'user' | 'assistant'; text: string; time: number | null; speaker?: string }[];
}

/** What the world already knows, given to the extractor so it connects new mentions to existing entities. */
export interface Preamble {
  /** Entities with transitions in the last 3 days before the batch. */
  recentEntities: PreambleEntity[];
  /** The last transitions across the whole world (5–10). */
  recentTransitions: { entityName: string; kind: TransitionKind; summary: string; eventTime: number }[];
  /** Project entities with importance above the threshold. */
  activeProjects: PreambleEntity[];
  /** Known entities whose name or an alias appears in the batch text. */
  mentionedEntities: PreambleEntity[];
  /** The period the batch falls in, if one is known. */
  currentPeriod: string | null;
}

export interface PreambleEntity {
  name: string;
  type: string;
  aliases: string[];
  state: EntityState;
}

export interface ExtractionBatch {
  /** Batch key: the local day ("2024-03-15"), with a suffix when a long day is split ("2024-03-15#2"). */
  id: string;
  /** Representative time of the batch (its first conversation), epoch ms. */
  date: number;
  tz: string;
  episodes: BatchEpisode[];
  preamble: Preamble;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Model calls answered from the response cache (no cost). */
  cachedCalls: number;
  calls: number;
}

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, costUsd: 0, cachedCalls: 0, calls: 0 };

export interface ExtractorOutput {
  result: ExtractionResult;
  usage: Usage;
}

export type ExtractorKind = 'llm' | 'offline' | 'precomputed';

/** Every extractor turns a batch into an ExtractionResult. */
export interface Extractor {
  readonly kind: ExtractorKind;
  /** For messages and the cache key: "offline-rules@1", "openai:gpt-5-mini". */
  readonly label: string;
  extract(input: { batch: ExtractionBatch; signal?: AbortSignal }): Promise<ExtractorOutput>;
}
