import { stripUrlCredentials } from '../domain/secrets.js';
import { PieError } from '../domain/errors.js';
import type { Env } from '../config/config.js';
import { PROVIDERS, type ModelRef, type ProviderName } from '../ports/llm.js';

/** The model PIE uses when a key is set but no model is named. */
export const DEFAULT_MODELS = {
  openai: 'gpt-5-mini',
  anthropic: 'claude-sonnet-4-5',
} as const;

const EXAMPLES =
  'openai:gpt-5-mini, anthropic:claude-sonnet-4-5, ollama:qwen2.5:14b or openai-compatible:http://127.0.0.1:8080/v1#model';

function isProvider(value: string): value is ProviderName {
  return (PROVIDERS as readonly string[]).includes(value);
}

/**
 * Parse `provider:model`. Only the first colon separates: model names may contain colons (`ollama:qwen2.5:14b`).
 * openai-compatible takes `openai-compatible:<base-url>#<model>`.
 */
export function parseModelRef(text: string): ModelRef {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(':');
  if (colon <= 0) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `"${text}" does not name a provider; write provider:model, e.g. ${EXAMPLES}.`,
    );
  }
  const provider = trimmed.slice(0, colon).toLowerCase();
  const rest = trimmed.slice(colon + 1).trim();
  if (!isProvider(provider)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `Unknown LLM provider "${provider}" in "${stripUrlCredentials(text)}"; use one of ${PROVIDERS.filter((p) => p !== 'fake').join(', ')}, e.g. ${EXAMPLES}.`,
    );
  }
  if (provider === 'openai-compatible') return parseCompatible(text, rest);
  if (rest === '') {
    throw new PieError('INVALID_ARGUMENT', `"${text}" names no model; write ${provider}:<model>, e.g. ${EXAMPLES}.`);
  }
  return { provider, model: rest };
}

function parseCompatible(text: string, rest: string): ModelRef {
  const hash = rest.indexOf('#');
  const url = (hash < 0 ? rest : rest.slice(0, hash)).trim();
  const model = hash < 0 ? '' : rest.slice(hash + 1).trim();
  if (url === '' || model === '') {
    throw new PieError(
      'INVALID_ARGUMENT',
      `"${stripUrlCredentials(text)}" needs a base URL and a model: write openai-compatible:<base-url>#<model>, e.g. openai-compatible:http://127.0.0.1:8080/v1#qwen2.5-14b-instruct.`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `"${stripUrlCredentials(url)}" in "${stripUrlCredentials(text)}" is not a URL; write it like http://127.0.0.1:8080/v1.`,
      {
        cause,
      },
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new PieError(
      'INVALID_ARGUMENT',
      `"${stripUrlCredentials(url)}" in "${stripUrlCredentials(text)}" must start with http:// or https://.`,
    );
  }
  return { provider: 'openai-compatible', model, baseUrl: url.replace(/\/+$/, '') };
}

/** `openai:gpt-5-mini`, `openai-compatible:http://host/v1#model`: the inverse of parseModelRef. */
export function formatModelRef(ref: ModelRef): string {
  // The printed and stored form: credentials in the URL never appear (the request itself still uses them).
  if (ref.provider === 'openai-compatible') {
    return `openai-compatible:${stripUrlCredentials(ref.baseUrl ?? '')}#${ref.model}`;
  }
  return `${ref.provider}:${ref.model}`;
}

export type ModelSource = '--llm' | 'PIE_LLM' | 'OPENAI_API_KEY' | 'ANTHROPIC_API_KEY';

export interface ModelSelection {
  ref: ModelRef;
  /** Why this model: for messages such as "using openai:gpt-5-mini (OPENAI_API_KEY is set)". */
  source: ModelSource;
}

/**
 * Which model to use: the `--llm` flag, else PIE_LLM, else OPENAI_API_KEY → openai:gpt-5-mini, else
 * ANTHROPIC_API_KEY → anthropic:claude-sonnet-4-5, else null (the offline extractor). Empty values count as unset.
 */
export function selectModel(input: { flag?: string | null | undefined; env: Env }): ModelSelection | null {
  const { flag, env } = input;
  if (flag !== undefined && flag !== null && flag.trim() !== '') return { ref: parseModelRef(flag), source: '--llm' };
  const configured = env.PIE_LLM?.trim();
  if (configured) return { ref: parseModelRef(configured), source: 'PIE_LLM' };
  if (env.OPENAI_API_KEY?.trim()) {
    return { ref: { provider: 'openai', model: DEFAULT_MODELS.openai }, source: 'OPENAI_API_KEY' };
  }
  if (env.ANTHROPIC_API_KEY?.trim()) {
    return { ref: { provider: 'anthropic', model: DEFAULT_MODELS.anthropic }, source: 'ANTHROPIC_API_KEY' };
  }
  return null;
}
