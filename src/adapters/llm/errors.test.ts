import { APICallError, LoadAPIKeyError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { PieError, type PieErrorCode } from '../../domain/errors.js';
import { retryAfterMs, translateLlmError, type ProviderContext } from './errors.js';

const anthropic: ProviderContext = {
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  url: 'https://api.anthropic.com/v1',
  keyEnv: 'ANTHROPIC_API_KEY',
  local: false,
};
const ollama: ProviderContext = {
  provider: 'ollama',
  model: 'qwen2.5:14b',
  url: 'http://127.0.0.1:11434/api',
  keyEnv: null,
  local: true,
};

function http(status: number, message: string, extra: { headers?: Record<string, string>; body?: string } = {}) {
  return new APICallError({
    message,
    url: 'https://example/v1',
    requestBodyValues: {},
    statusCode: status,
    ...(extra.headers ? { responseHeaders: extra.headers } : {}),
    ...(extra.body ? { responseBody: extra.body } : {}),
  });
}

function networkFailure(code: string) {
  const cause = Object.assign(new Error(`getaddrinfo ${code} api.anthropic.com`), { code });
  return new APICallError({
    message: `Cannot connect to API: ${cause.message}`,
    url: 'x',
    requestBodyValues: {},
    cause,
    isRetryable: true,
  });
}

describe('translateLlmError', () => {
  const cases: [string, unknown, ProviderContext, PieErrorCode, RegExp, boolean | undefined][] = [
    [
      '401 names the key variable',
      http(401, 'invalid x-api-key'),
      anthropic,
      'LLM_UNAVAILABLE',
      /^Anthropic rejected the credentials \(HTTP 401: invalid x-api-key\); check ANTHROPIC_API_KEY\.$/,
      false,
    ],
    [
      '403 without a key variable',
      http(403, 'forbidden'),
      ollama,
      'LLM_UNAVAILABLE',
      /check the server’s access settings\.$/,
      false,
    ],
    [
      '429 is a rate limit',
      http(429, 'rate_limit_error'),
      anthropic,
      'LLM_RATE_LIMITED',
      /^Anthropic is rate limiting requests for claude-sonnet-4-5/,
      true,
    ],
    [
      '429 without quota is final',
      http(429, 'You exceeded your current quota', { body: '{"error":{"code":"insufficient_quota"}}' }),
      anthropic,
      'LLM_UNAVAILABLE',
      /no quota or credit left/,
      false,
    ],
    [
      '404 on ollama suggests pulling',
      http(404, "model 'qwen2.5:14b' not found"),
      ollama,
      'LLM_UNAVAILABLE',
      /run `ollama pull qwen2\.5:14b` first\.$/,
      false,
    ],
    [
      '529 overloaded is transient',
      http(529, 'Overloaded'),
      anthropic,
      'LLM_UNAVAILABLE',
      /failed \(HTTP 529: Overloaded\); PIE retries such errors\.$/,
      true,
    ],
    [
      'other 4xx is final',
      http(422, 'bad field'),
      anthropic,
      'LLM_UNAVAILABLE',
      /refused the request \(HTTP 422: bad field\)\.$/,
      false,
    ],
    [
      'unknown host, cloud advice',
      networkFailure('ENOTFOUND'),
      anthropic,
      'LLM_UNAVAILABLE',
      /^Could not reach Anthropic at https:\/\/api\.anthropic\.com\/v1: host not found \(ENOTFOUND\); check your network/,
      false,
    ],
    [
      'reset connection is transient',
      networkFailure('ECONNRESET'),
      ollama,
      'LLM_UNAVAILABLE',
      /connection reset \(ECONNRESET\); check that the server runs/,
      true,
    ],
    [
      'RetryError is unwrapped',
      new RetryError({ message: 'failed', reason: 'maxRetriesExceeded', errors: [http(503, 'down')] }),
      anthropic,
      'LLM_UNAVAILABLE',
      /HTTP 503/,
      true,
    ],
    [
      'missing key',
      new LoadAPIKeyError({ message: 'missing' }),
      anthropic,
      'LLM_UNAVAILABLE',
      /^ANTHROPIC_API_KEY is not set/,
      false,
    ],
    [
      'anything else is final',
      new Error('weird'),
      anthropic,
      'LLM_UNAVAILABLE',
      /^Anthropic call for claude-sonnet-4-5 failed: weird\.$/,
      false,
    ],
  ];
  it.each(cases)('%s', (_name, error, context, code, message, transient) => {
    const translated = translateLlmError({ error, context });
    expect(translated.code).toBe(code);
    expect(translated.message).toMatch(message);
    expect(translated.details?.transient).toBe(transient);
  });

  it('passes PieErrors through', () => {
    const original = new PieError('LLM_RATE_LIMITED', 'x');
    expect(translateLlmError({ error: original, context: anthropic })).toBe(original);
  });
});

describe('retryAfterMs', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  const cases: [Record<string, string> | undefined, number | null][] = [
    [undefined, null],
    [{}, null],
    [{ 'retry-after-ms': '250' }, 250],
    [{ 'retry-after': '7' }, 7000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'retry-after': 'Thu, 01 Jan 2026 12:00:30 GMT' }, 30_000],
    [{ 'retry-after': 'soon' }, null],
  ];
  it.each(cases)('%j → %s', (headers, expected) => {
    expect(retryAfterMs({ headers, now })).toBe(expected);
  });
});
