/**
 * The model boundary. A `LanguageModel` is one provider's model, reduced to the one call PIE needs: messages in,
 * text (or a JSON value for structured output) out, with token usage. Adapters implement it on the Vercel AI SDK;
 * tests use the scripted fake. Caching, validation, retries and cost accounting are core policy layered on top
 * (src/llm/), so every provider gets them the same way.
 */
export const PROVIDERS = ['openai', 'anthropic', 'ollama', 'openai-compatible', 'fake'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export interface ModelRef {
  provider: ProviderName;
  model: string;
  /** For openai-compatible: the server's base URL. */
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
}

export interface ModelResponse {
  /** Raw text; for structured requests, the JSON text. */
  text: string;
  inputTokens: number;
  outputTokens: number;
}

export interface LanguageModel {
  readonly ref: ModelRef;
  generate(request: ModelRequest): Promise<ModelResponse>;
}
