import { errorMessage } from '../domain/errors.js';
import { extractionResultSchema, type ExtractionResult } from '../extract/result.js';
import { ZERO_USAGE, type Extractor, type Usage } from '../extract/types.js';
import type { WorldStore } from '../ports/world-store.js';
import { buildBatchInput } from './batch-input.js';
import type { PlannedBatch } from './batches.js';

/** One batch's extraction: a validated result, or the reason it failed; the model usage either way. */
export type Extracted =
  { ok: true; result: ExtractionResult; usage: Usage } | { ok: false; error: string; usage: Usage };

/** Builds the batch's input (its turns and a preamble of the world as it is now) and extracts it; never throws. */
export async function extractOne(input: {
  store: WorldStore;
  extractor: Extractor;
  index: Parameters<typeof buildBatchInput>[0]['index'];
  planned: PlannedBatch;
  tz: string;
  signal?: AbortSignal | undefined;
}): Promise<Extracted> {
  try {
    const batch = await buildBatchInput({
      store: input.store,
      index: input.index,
      planned: input.planned,
      tz: input.tz,
    });
    const out = await input.extractor.extract({ batch, ...(input.signal ? { signal: input.signal } : {}) });
    // Whatever an extractor returns is validated again at the boundary of the world model.
    const result = extractionResultSchema.parse(out.result);
    return { ok: true, result, usage: out.usage };
  } catch (cause) {
    return { ok: false, error: errorMessage(cause), usage: { ...ZERO_USAGE } };
  }
}
