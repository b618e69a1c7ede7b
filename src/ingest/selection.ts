import type { Episode } from '../domain/world.js';
import type { Usage } from '../extract/types.js';
import type { WorldStore } from '../ports/world-store.js';
import { planBatches, type PlannedBatch } from './batches.js';

export interface SelectionOptions {
  store: WorldStore;
  tz: string;
  /** Only episodes on or after this time. */
  since?: number | undefined;
  /** At most this many episodes (the earliest pending ones). */
  limit?: number | undefined;
  /** Token cap of one batch's conversations (estimated at 4 characters per token). */
  maxBatchTokens: number;
}

/** Episodes waiting for extraction (new, changed, or failed before), planned into daily batches. */
export async function planPendingBatches(
  options: SelectionOptions,
): Promise<{ batches: PlannedBatch[]; episodes: number; tokens: number }> {
  const { store } = options;
  const pending: Episode[] = [];
  for (const status of ['pending', 'failed'] as const) {
    pending.push(
      ...(await store.episodes.list({
        extraction: status,
        ...(options.since !== undefined ? { since: options.since } : {}),
      })),
    );
  }
  pending.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  const chosen = options.limit !== undefined ? pending.slice(0, options.limit) : pending;
  const episodes = [];
  for (const e of chosen) {
    const turns = await store.episodes.turns(e.id);
    episodes.push({ id: e.id, time: e.createdAt, turnTokens: turns.map((t) => Math.ceil(t.text.length / 4) + 4) });
  }
  const batches = planBatches({ episodes, tz: options.tz, maxTokens: options.maxBatchTokens });
  return { batches, episodes: chosen.length, tokens: batches.reduce((n, b) => n + b.tokens, 0) };
}

export function addUsage(into: Usage, from: Usage): void {
  into.inputTokens += from.inputTokens;
  into.outputTokens += from.outputTokens;
  into.costUsd += from.costUsd;
  into.cachedCalls += from.cachedCalls;
  into.calls += from.calls;
}
