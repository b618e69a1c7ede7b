import { APICallError, LoadAPIKeyError, RetryError } from 'ai';
import { PieError, isPieError } from '../../domain/errors.js';
import type { ProviderName } from '../../ports/llm.js';
import { stripUrlCredentials } from '../../domain/secrets.js';

/** What an error message needs to name: who, where, which model, which variable holds the key. */
export interface ProviderContext {
  provider: ProviderName;
  model: string;
  /** The base URL requests go to. */
  url: string;
  /** The environment variable with the API key, or null when the provider takes none. */
  keyEnv: string | null;
  /** True for servers on this machine or network (ollama, a local openai-compatible server). */
  local: boolean;
}

const DISPLAY: Record<ProviderName, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  ollama: 'Ollama',
  'openai-compatible': 'the OpenAI-compatible server',
  fake: 'the fake model',
};

/** Network failures worth retrying; refused connections and unknown hosts are final (nothing listens there). */
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const NETWORK_CODES = new Set([
  ...TRANSIENT_NETWORK_CODES,
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ConnectionRefused',
]);

const CODE_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ConnectionRefused: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
};

function networkCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    current = current.cause;
  }
  return null;
}

/** Milliseconds the server asked to wait (`retry-after-ms`, or `retry-after` in seconds or as an HTTP date). */
export function retryAfterMs(input: { headers: Record<string, string> | undefined; now?: number }): number | null {
  const { headers } = input;
  if (!headers) return null;
  const ms = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const text = headers['retry-after'];
  if (text === undefined) return null;
  const seconds = Number.parseFloat(text);
  if (Number.isFinite(seconds) && /^\s*[\d.]+\s*$/.test(text)) return Math.max(0, seconds * 1000);
  const date = Date.parse(text);
  return Number.isFinite(date) ? Math.max(0, date - (input.now ?? Date.now())) : null;
}

function shortMessage(error: Error): string {
  const text = error.message.replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

function networkError(error: unknown, ctx: ProviderContext, code: string | null): PieError {
  const who = DISPLAY[ctx.provider];
  const reason =
    code === null
      ? error instanceof Error
        ? shortMessage(error)
        : String(error)
      : `${CODE_WORDS[code] ?? 'network error'} (${code})`;
  const advice = ctx.local
    ? 'check that the server runs and the URL is right'
    : 'check your network (and any proxy settings)';
  return new PieError('LLM_UNAVAILABLE', `Could not reach ${who} at ${ctx.url}: ${reason}; ${advice}.`, {
    cause: error,
    details: {
      provider: ctx.provider,
      url: ctx.url,
      code,
      transient: code !== null && TRANSIENT_NETWORK_CODES.has(code),
    },
  });
}

function httpError(error: APICallError, ctx: ProviderContext, status: number): PieError {
  const who = DISPLAY[ctx.provider];
  const said = shortMessage(error);
  const base = { provider: ctx.provider, url: ctx.url, status };
  if (status === 401 || status === 403) {
    const fix = ctx.keyEnv ? `check ${ctx.keyEnv}` : 'check the server’s access settings';
    return new PieError('LLM_UNAVAILABLE', `${who} rejected the credentials (HTTP ${status}: ${said}); ${fix}.`, {
      cause: error,
      details: { ...base, transient: false },
    });
  }
  if (status === 429) {
    if (/insufficient_quota|credit balance|billing/i.test(`${error.responseBody ?? ''} ${error.message}`)) {
      return new PieError('LLM_UNAVAILABLE', `${who} refused: the account has no quota or credit left (${said}).`, {
        cause: error,
        details: { ...base, transient: false },
      });
    }
    const wait = retryAfterMs({ headers: error.responseHeaders });
    return new PieError('LLM_RATE_LIMITED', `${who} is rate limiting requests for ${ctx.model} (${said}).`, {
      cause: error,
      details: { ...base, transient: true, ...(wait === null ? {} : { retryAfterMs: wait }) },
    });
  }
  if (status === 404) {
    const hint = ctx.provider === 'ollama' ? `; run \`ollama pull ${ctx.model}\` first` : '; check the model name';
    return new PieError(
      'LLM_UNAVAILABLE',
      `${who} at ${ctx.url} has no model "${ctx.model}" (HTTP 404: ${said})${hint}.`,
      {
        cause: error,
        details: { ...base, transient: false },
      },
    );
  }
  const transient = status === 408 || status >= 500;
  const verb = transient ? 'failed' : 'refused the request';
  const advice = transient ? '; PIE retries such errors' : '';
  return new PieError('LLM_UNAVAILABLE', `${who} at ${ctx.url} ${verb} (HTTP ${status}: ${said})${advice}.`, {
    cause: error,
    details: { ...base, transient },
  });
}

/**
 * The one place provider errors become PieErrors (see the error contract in ports/llm.ts):
 * unreachable → LLM_UNAVAILABLE; 401/403 → LLM_UNAVAILABLE naming the key variable; 429 → LLM_RATE_LIMITED with
 * `retryAfterMs`; 5xx, 408 and timeouts → LLM_UNAVAILABLE `transient`; other 4xx → LLM_UNAVAILABLE, final.
 */
export function translateLlmError(input: { error: unknown; context: ProviderContext; timeoutMs?: number }): PieError {
  const ctx = { ...input.context, url: stripUrlCredentials(input.context.url) };
  const translated = translate({ ...input, context: ctx });
  // A provider's own words may echo the URL it was called with, credentials included.
  const message = stripUrlCredentials(translated.message);
  return message === translated.message
    ? translated
    : new PieError(translated.code, message, { cause: translated.cause, details: translated.details });
}

function translate(input: { error: unknown; context: ProviderContext; timeoutMs?: number }): PieError {
  const { context: ctx } = input;
  let error = input.error;
  if (RetryError.isInstance(error)) error = error.lastError;
  if (isPieError(error)) return error;
  const who = DISPLAY[ctx.provider];
  if (error instanceof Error && error.name === 'TimeoutError') {
    const ms = input.timeoutMs;
    const after = ms === undefined ? '' : ms < 1000 ? ` after ${ms} ms` : ` after ${Math.round(ms / 1000)} s`;
    return new PieError('LLM_UNAVAILABLE', `${who} at ${ctx.url} did not answer${after}; PIE retries such errors.`, {
      cause: error,
      details: { provider: ctx.provider, url: ctx.url, transient: true },
    });
  }
  if (LoadAPIKeyError.isInstance(error)) {
    return missingKey(ctx, error);
  }
  if (APICallError.isInstance(error)) {
    if (error.statusCode === undefined) return networkError(error, ctx, networkCode(error));
    return httpError(error, ctx, error.statusCode);
  }
  const code = networkCode(error);
  if (code !== null) return networkError(error, ctx, code);
  const said = error instanceof Error ? shortMessage(error) : String(error);
  return new PieError('LLM_UNAVAILABLE', `${who} call for ${ctx.model} failed: ${said}.`, {
    cause: error,
    details: { provider: ctx.provider, url: ctx.url, transient: false },
  });
}

export function missingKey(ctx: ProviderContext, cause?: unknown): PieError {
  return new PieError(
    'LLM_UNAVAILABLE',
    `${ctx.keyEnv ?? 'The API key'} is not set; export it, or choose another model with --llm or PIE_LLM.`,
    { cause, details: { provider: ctx.provider, transient: false } },
  );
}
