import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embedMany, type EmbeddingModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { PieError } from '../../domain/errors.js';
import type { Embedder } from '../../ports/embedder.js';
import type { ModelRef } from '../../ports/llm.js';
import { translateLlmError } from '../llm/errors.js';
import { DEFAULT_OLLAMA_URL, type Env } from '../llm/providers.js';

/**
 * Embeddings through the AI SDK: OpenAI (and OpenAI-compatible servers) and Ollama. Anthropic has no embedding API.
 * The dimension is learned from the first answer. Errors are translated like model errors.
 */
export function createEmbedder(input: { ref: ModelRef; env: Env; batchSize?: number }): Embedder {
  const { ref, env } = input;
  const batchSize = input.batchSize ?? 256;
  let model: EmbeddingModel;
  let url: string;
  switch (ref.provider) {
    case 'openai': {
      const apiKey = env.OPENAI_API_KEY?.trim();
      url = env.OPENAI_BASE_URL?.trim() || 'https://api.openai.com/v1';
      if (!apiKey && !env.OPENAI_BASE_URL) {
        throw new PieError(
          'LLM_UNAVAILABLE',
          'PIE_EMBEDDER names an OpenAI model but OPENAI_API_KEY is not set; set it or choose another embedder.',
        );
      }
      model = createOpenAI({ apiKey: apiKey ?? '', baseURL: url }).embedding(ref.model);
      break;
    }
    case 'ollama':
      url = env.OLLAMA_BASE_URL?.trim() || DEFAULT_OLLAMA_URL;
      model = createOllama({ baseURL: url }).embedding(ref.model);
      break;
    case 'openai-compatible':
      url = ref.baseUrl ?? '';
      model = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: url,
        apiKey: env.PIE_LLM_API_KEY,
      }).embeddingModel(ref.model);
      break;
    default:
      throw new PieError(
        'INVALID_ARGUMENT',
        `${ref.provider} has no embedding models PIE can use; use openai, ollama or openai-compatible.`,
      );
  }
  let dimensions = 0;
  return {
    model: `${ref.provider}:${ref.model}`,
    get dimensions() {
      return dimensions;
    },
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        try {
          const { embeddings } = await embedMany({ model, values: texts.slice(i, i + batchSize), maxRetries: 2 });
          out.push(...embeddings);
        } catch (error) {
          throw translateLlmError({
            error,
            context: { provider: ref.provider, model: ref.model, url, keyEnv: 'OPENAI_API_KEY', local: false },
          });
        }
      }
      dimensions = out[0]?.length ?? dimensions;
      return out;
    },
  };
}
