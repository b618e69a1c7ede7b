/**
 * The model boundary. A `LanguageModel` is one provider's model, reduced to the one call PIE needs: messages in,
 * text (or a JSON value for structured output) out, with token usage. Adapters implement it on the Vercel AI SDK;
 * tests use the scripted fake. Caching, validation, retries and cost accounting are core policy layered on top
 * (src/llm/), so every provider gets them the same way.
 *
 * Error contract (what the core retry policy relies on): adapters throw `PieError` with
 * - `LLM_RATE_LIMITED` — retry later; `details.retryAfterMs` (number) when the server said how long to wait;
 * - `LLM_UNAVAILABLE` — `details.transient === true` for failures worth retrying (5xx, timeouts, dropped
 *   connections); anything else (bad key, unknown model, server not running) is final.
 * Any other thrown value is treated as final. A request whose `signal` aborts rejects with the abort error as is.
 */
export const PROVIDERS = ['openai', 'anthropic', 'ollama', 'openai-compatible', 'fake'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export interface ModelRef {
  provider: ProviderName;
  model: string;
  /**
   * The server's base URL: required for openai-compatible; adapters also fill it in when a non-default server is
   * used (OPENAI_BASE_URL, OLLAMA_BASE_URL), so the response cache never mixes answers from different servers.
   */
  baseUrl?: string;
}

export interface ModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ModelRequest {
  /** Prompt module name and version, e.g. "extract-batch@3": scripts the fake, keys the cache, labels accounting. */
  prompt: string;
  messages: ModelMessage[];
  /** When set, the model is asked for JSON matching this JSON Schema. */
  jsonSchema?: Record<string, unknown>;
  /** Name for the structured output (some providers require one). */
  schemaName?: string;
  maxOutputTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /**
   * The answer's text as it arrives (plain-text requests only). An adapter that can stream calls it with each piece;
   * one that cannot ignores it (the client then passes the whole text once).
   */
  onText?: (delta: string) => void;
}

/** Why the model stopped; `length` means the answer was cut off at `maxOutputTokens`. */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

export interface ModelResponse {
  /** Raw text; for structured requests, the JSON text (not yet validated: the core validates it). */
  text: string;
  inputTokens: number;
  outputTokens: number;
  /** Absent when the provider did not say. */
  finishReason?: FinishReason;
}

export interface LanguageModel {
  readonly ref: ModelRef;
  generate(request: ModelRequest): Promise<ModelResponse>;
}
