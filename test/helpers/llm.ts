import type { ScriptedModel } from '../../src/adapters/llm/fake.js';
import { createLlmClient, type LlmClient } from '../../src/llm/index.js';
import type { WorldStore } from '../../src/ports/world-store.js';

/** An LlmClient over a scripted fake model, caching in `store`, at a fixed time, with no price table and no waits. */
export function scriptedClient(input: { model: ScriptedModel; store: WorldStore; now: number }): LlmClient {
  return createLlmClient({
    model: input.model,
    cache: input.store.llmCache,
    clock: { now: () => input.now },
    prices: {},
    sleep: async () => undefined,
  });
}
