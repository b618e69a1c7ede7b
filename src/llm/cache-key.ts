import { createHash } from 'node:crypto';
import type { ModelMessage, ModelRef } from '../ports/llm.js';

/** Bump when the key's ingredients change, so old entries are simply never hit again. */
const KEY_VERSION = 1;

/**
 * The response-cache key: sha256 over the provider, model, base URL, prompt `name@version`, the rendered messages
 * and the JSON Schema. Anything that changes what the model is asked changes the key; re-running the same ingest
 * hits the cache and costs nothing.
 */
export function llmCacheKey(input: {
  ref: ModelRef;
  prompt: string;
  messages: readonly ModelMessage[];
  jsonSchema?: Record<string, unknown> | undefined;
}): string {
  const material = JSON.stringify([
    KEY_VERSION,
    input.ref.provider,
    input.ref.model,
    input.ref.baseUrl ?? null,
    input.prompt,
    input.messages.map((m) => [m.role, m.content]),
    input.jsonSchema ?? null,
  ]);
  return createHash('sha256').update(material).digest('hex');
}
