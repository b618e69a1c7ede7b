import { episodeIdFor, type Conversation } from '../domain/conversation.js';
import type { BatchEpisode, ExtractionBatch } from '../extract/types.js';
import type { WorldStore } from '../ports/world-store.js';
import type { NameIndex } from '../resolve/name-index.js';
import { buildBatchInput, loadBatchEpisode } from './batch-input.js';
import { planBatches } from './batches.js';

export interface TokenEstimate {
  inputTokens: number;
  outputTokensGuess: number;
}

export interface DryRunBatch {
  id: string;
  episodes: number;
  contentTokens: number;
  inputTokens: number;
  outputTokensGuess: number;
}

export interface ExtractionDryRun {
  batches: DryRunBatch[];
  episodes: number;
  days: number;
  inputTokens: number;
  outputTokensGuess: number;
}

/**
 * What extraction would send, without calling a model: the conversations an import would add or change plus the
 * episodes already waiting, planned into the same daily batches as a real run, each rendered with a preamble of the
 * current world and measured by `estimate` (exact prompt tokens from the tokenizer).
 */
export async function planExtractionDryRun(input: {
  store: WorldStore;
  index: NameIndex;
  incoming: readonly Conversation[];
  tz: string;
  maxBatchTokens: number;
  since?: number | undefined;
  limit?: number | undefined;
  estimate: (batch: ExtractionBatch) => TokenEstimate;
  onProgress?: (done: number, total: number) => void;
}): Promise<ExtractionDryRun> {
  const episodes = new Map<string, BatchEpisode>();
  for (const c of input.incoming) {
    episodes.set(episodeIdFor(c), {
      id: episodeIdFor(c),
      title: c.title,
      createdAt: c.createdAt,
      model: c.model,
      turns: c.turns.map((t) => ({ role: t.role, text: t.text, time: t.time })),
    });
  }
  for (const status of ['pending', 'failed'] as const) {
    for (const e of await input.store.episodes.list({ extraction: status })) {
      if (episodes.has(e.id)) continue;
      const loaded = await loadBatchEpisode(input.store, e.id);
      if (loaded) episodes.set(e.id, loaded);
    }
  }
  let chosen = [...episodes.values()]
    .filter((e) => input.since === undefined || e.createdAt >= input.since)
    .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  if (input.limit !== undefined) chosen = chosen.slice(0, input.limit);
  const planned = planBatches({
    episodes: chosen.map((e) => ({
      id: e.id,
      time: e.createdAt,
      turnTokens: e.turns.map((t) => Math.ceil(t.text.length / 4) + 4),
    })),
    tz: input.tz,
    maxTokens: input.maxBatchTokens,
  });
  const batches: DryRunBatch[] = [];
  for (const [i, p] of planned.entries()) {
    const batch = await buildBatchInput({
      store: input.store,
      index: input.index,
      planned: p,
      tz: input.tz,
      episode: async (id) => episodes.get(id),
    });
    const estimate = input.estimate(batch);
    batches.push({
      id: p.id,
      episodes: p.slices.length,
      contentTokens: p.tokens,
      inputTokens: estimate.inputTokens,
      outputTokensGuess: estimate.outputTokensGuess,
    });
    input.onProgress?.(i + 1, planned.length);
  }
  return {
    batches,
    episodes: chosen.length,
    days: new Set(planned.map((p) => p.day)).size,
    inputTokens: batches.reduce((n, b) => n + b.inputTokens, 0),
    outputTokensGuess: batches.reduce((n, b) => n + b.outputTokensGuess, 0),
  };
}
