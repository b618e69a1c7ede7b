import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel as AiLanguageModel, generateText } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { PieError } from '../../domain/errors.js';
import type { ModelRef } from '../../ports/llm.js';
import { missingKey, type ProviderContext } from './errors.js';

export type Env = Record<string, string | undefined>;
export type ProviderOptions = NonNullable<Parameters<typeof generateText>[0]['providerOptions']>;
export type FetchFunction = typeof globalThis.fetch;

export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:11434/api';
const DEFAULT_OPENAI_URL = 'https://api.openai.com/v1';
const DEFAULT_ANTHROPIC_URL = 'https://api.anthropic.com/v1';
/**
 * Ollama's default context window (2–4k tokens) silently truncates an extraction prompt, so PIE asks for 16k
 * unless PIE_OLLAMA_NUM_CTX says otherwise. Keep it fixed: a changing num_ctx makes Ollama reload the model.
 */
const DEFAULT_OLLAMA_NUM_CTX = 16_384;

/** One provider's model, ready for `generateText`, with what error messages need. */
export interface ProviderSetup {
  model: AiLanguageModel;
  /** The ref with `baseUrl` filled in when a non-default server is used (keys the response cache). */
  ref: ModelRef;
  context: ProviderContext;
  providerOptions: ProviderOptions;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function isLocal(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host) || /^(10|192\.168)\./.test(host);
  } catch {
    return false; // an unparsable URL is reported by the request itself; treat it as remote for the advice
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function ollamaNumCtx(env: Env): number {
  const text = nonEmpty(env.PIE_OLLAMA_NUM_CTX);
  if (text === undefined) return DEFAULT_OLLAMA_NUM_CTX;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 512) {
    throw new PieError('INVALID_ARGUMENT', `PIE_OLLAMA_NUM_CTX "${text}" must be a whole number of tokens ≥ 512.`);
  }
  return value;
}

/** Build the AI SDK model for a ref. Throws LLM_UNAVAILABLE when a required API key is missing. */
export function setupProvider(input: { ref: ModelRef; env: Env; fetch?: FetchFunction }): ProviderSetup {
  const { ref, env } = input;
  const fetchOption = input.fetch === undefined ? {} : { fetch: input.fetch };
  switch (ref.provider) {
    case 'openai': {
      const apiKey = nonEmpty(env.OPENAI_API_KEY);
      const baseUrl = nonEmpty(env.OPENAI_BASE_URL);
      const url = trimSlash(baseUrl ?? DEFAULT_OPENAI_URL);
      const context: ProviderContext = {
        provider: 'openai',
        model: ref.model,
        url,
        keyEnv: 'OPENAI_API_KEY',
        local: isLocal(url),
      };
      // A custom base URL (a proxy or gateway) may not need a key; api.openai.com always does.
      if (apiKey === undefined && baseUrl === undefined) throw missingKey(context);
      const provider = createOpenAI({ apiKey: apiKey ?? '', ...(baseUrl ? { baseURL: url } : {}), ...fetchOption });
      return {
        model: provider(ref.model),
        ref: { provider: 'openai', model: ref.model, ...(baseUrl ? { baseUrl: url } : {}) },
        context,
        // Non-strict JSON schema: PIE's schemas have optional fields and open records, which strict mode rejects;
        // zod validates the answer anyway. `store: false`: OpenAI keeps no copy of the conversation.
        providerOptions: { openai: { strictJsonSchema: false, store: false } },
      };
    }
    case 'anthropic': {
      const apiKey = nonEmpty(env.ANTHROPIC_API_KEY);
      const baseUrl = nonEmpty(env.ANTHROPIC_BASE_URL);
      const url = trimSlash(baseUrl ?? DEFAULT_ANTHROPIC_URL);
      const context: ProviderContext = {
        provider: 'anthropic',
        model: ref.model,
        url,
        keyEnv: 'ANTHROPIC_API_KEY',
        local: isLocal(url),
      };
      if (apiKey === undefined) throw missingKey(context);
      const provider = createAnthropic({ apiKey, ...(baseUrl ? { baseURL: url } : {}), ...fetchOption });
      return {
        model: provider(ref.model),
        ref: { provider: 'anthropic', model: ref.model, ...(baseUrl ? { baseUrl: url } : {}) },
        context,
        providerOptions: {},
      };
    }
    case 'ollama': {
      const url = trimSlash(nonEmpty(env.OLLAMA_BASE_URL) ?? DEFAULT_OLLAMA_URL);
      const provider = createOllama({ baseURL: url, ...fetchOption });
      return {
        model: provider(ref.model),
        ref: { provider: 'ollama', model: ref.model, baseUrl: url },
        context: { provider: 'ollama', model: ref.model, url, keyEnv: null, local: isLocal(url) },
        providerOptions: { ollama: { options: { num_ctx: ollamaNumCtx(env) } } },
      };
    }
    case 'openai-compatible': {
      if (ref.baseUrl === undefined) {
        throw new PieError(
          'INVALID_ARGUMENT',
          `openai-compatible needs a base URL: write openai-compatible:<base-url>#${ref.model}.`,
        );
      }
      const url = trimSlash(ref.baseUrl);
      const apiKey = nonEmpty(env.PIE_LLM_API_KEY);
      const provider = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: url,
        ...(apiKey ? { apiKey } : {}),
        // LM Studio, vLLM and llama.cpp's server accept json_schema; LM Studio rejects json_object.
        supportsStructuredOutputs: true,
        ...fetchOption,
      });
      return {
        model: provider.chatModel(ref.model),
        ref: { provider: 'openai-compatible', model: ref.model, baseUrl: url },
        context: {
          provider: 'openai-compatible',
          model: ref.model,
          url,
          keyEnv: 'PIE_LLM_API_KEY',
          local: isLocal(url),
        },
        providerOptions: { openaiCompatible: { strictJsonSchema: false } },
      };
    }
    case 'fake':
      throw new PieError(
        'INVALID_ARGUMENT',
        'The fake model is for tests and benchmarks; choose a real provider with --llm or PIE_LLM.',
      );
  }
}
