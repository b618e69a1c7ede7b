import { createHash } from 'node:crypto';
import { extractionResultSchema } from '../extract/result.js';
import { ZERO_USAGE, type Usage } from '../extract/types.js';
import type { WorldStore } from '../ports/world-store.js';
import type { PlannedBatch } from './batches.js';
import type { Extracted } from './extract-one.js';

/**
 * Prepared results: a batch's extraction done by one `pie ingest` process for the run that holds the extraction
 * lease (the only one that applies results, strictly in order). They travel through the store's response cache
 * under a key of the extractor and the batch's exact slices, so a result is only ever used for the very same turns
 * extracted the same way, and the applying run deletes it as it takes it.
 */
const MODEL_LABEL = 'prepared-batch';

/** The key of a batch's prepared result: the extractor, the batch's day and every slice (episode, turns, parts). */
export function preparedKey(input: { planned: PlannedBatch; extractorLabel: string }): string {
  const { planned } = input;
  const slices = planned.slices.map((s) => [s.episodeId, s.fromTurn, s.toTurn, s.part, s.parts, s.tokens]);
  const digest = createHash('sha256')
    .update(JSON.stringify([input.extractorLabel, planned.id, planned.day, slices]))
    .digest('hex');
  return `${MODEL_LABEL}:${digest}`;
}

/** Whether another process has prepared this batch already. */
export async function isPrepared(store: WorldStore, key: string): Promise<boolean> {
  return (await store.llmCache.get(key)) !== null;
}

/** Keeps a successful extraction for the applying run. */
export async function savePrepared(input: {
  store: WorldStore;
  key: string;
  extracted: Extracted & { ok: true };
  now: number;
}): Promise<void> {
  const { result, usage } = input.extracted;
  await input.store.llmCache.put({
    key: input.key,
    model: MODEL_LABEL,
    prompt: '',
    response: JSON.stringify({ result, usage }),
    tokensIn: usage.inputTokens,
    tokensOut: usage.outputTokens,
    createdAt: input.now,
  });
}

/**
 * Takes (reads and deletes) a prepared result. Its model usage was paid and counted by the run that prepared it, so
 * the taker counts none. An entry that no longer validates is dropped and the batch is extracted again.
 */
export async function takePrepared(store: WorldStore, key: string): Promise<(Extracted & { ok: true }) | null> {
  const entry = await store.llmCache.get(key);
  if (entry === null || !(await store.llmCache.delete(key))) return null;
  try {
    const parsed = JSON.parse(entry.response) as { result?: unknown; usage?: Usage };
    return { ok: true, result: extractionResultSchema.parse(parsed.result), usage: { ...ZERO_USAGE } };
  } catch {
    return null;
  }
}
