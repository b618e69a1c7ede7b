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

/** The body an OpenAI Responses API server answers with: one assistant message holding `text`, and its usage. */
export function openAiResponsesReply(input: { text: string; inputTokens: number; outputTokens: number }): unknown {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    status: 'completed',
    model: 'gpt-5-mini',
    output: [
      {
        type: 'message',
        id: 'msg_1',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: input.text, annotations: [] }],
      },
    ],
    usage: {
      input_tokens: input.inputTokens,
      output_tokens: input.outputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}
