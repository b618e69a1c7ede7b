import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPieError } from '../domain/errors.js';
import type { ModelRef } from '../ports/llm.js';
import { DEFAULT_PRICES, estimateCost, loadPrices } from './prices.js';

describe('estimateCost', () => {
  const cases: [string, ModelRef, number, number, { usd: number; known: boolean }][] = [
    ['gpt-5-mini', { provider: 'openai', model: 'gpt-5-mini' }, 1_000_000, 1_000_000, { usd: 2.25, known: true }],
    [
      'dated id uses its family',
      { provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' },
      2_000_000,
      100_000,
      { usd: 7.5, known: true },
    ],
    [
      'gpt-4o-mini is not gpt-4o',
      { provider: 'openai', model: 'gpt-4o-mini-2024-07-18' },
      1_000_000,
      0,
      { usd: 0.15, known: true },
    ],
    [
      'unknown variants are unknown, not the base price',
      { provider: 'openai', model: 'gpt-5-turbo-ultra' },
      1000,
      1000,
      { usd: 0, known: false },
    ],
    ['ollama is free', { provider: 'ollama', model: 'qwen2.5:14b' }, 5_000_000, 5_000_000, { usd: 0, known: true }],
    [
      'local openai-compatible is free',
      { provider: 'openai-compatible', model: 'm', baseUrl: 'http://127.0.0.1:8080/v1' },
      10,
      10,
      { usd: 0, known: true },
    ],
    [
      'remote openai-compatible is unknown',
      { provider: 'openai-compatible', model: 'm', baseUrl: 'https://api.together.xyz/v1' },
      10,
      10,
      { usd: 0, known: false },
    ],
  ];
  it.each(cases)('%s', (_name, ref, inputTokens, outputTokens, expected) => {
    const cost = estimateCost({ prices: DEFAULT_PRICES, ref, inputTokens, outputTokens });
    expect(cost.known).toBe(expected.known);
    expect(cost.usd).toBeCloseTo(expected.usd, 10);
  });
});

describe('loadPrices', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pie-prices-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('returns the defaults without PIE_PRICES', async () => {
    expect(await loadPrices({ env: {} })).toEqual(DEFAULT_PRICES);
  });

  it('overrides and extends the defaults from the PIE_PRICES file', async () => {
    const file = join(dir, 'prices.json');
    await writeFile(
      file,
      JSON.stringify({ 'openai:gpt-5-mini': { input: 1, output: 1 }, 'my-model': { input: 3, output: 4 } }),
    );
    const prices = await loadPrices({ env: { PIE_PRICES: file } });
    expect(prices['openai:gpt-5-mini']).toEqual({ input: 1, output: 1 });
    expect(prices['openai:gpt-4o']).toEqual(DEFAULT_PRICES['openai:gpt-4o']);
    const ref: ModelRef = { provider: 'openai-compatible', model: 'my-model', baseUrl: 'https://host.example/v1' };
    expect(estimateCost({ prices, ref, inputTokens: 1_000_000, outputTokens: 1_000_000 })).toEqual({
      usd: 7,
      known: true,
    });
  });

  it('prefers an explicit file over PIE_PRICES', async () => {
    const file = join(dir, 'explicit.json');
    await writeFile(file, JSON.stringify({ 'x:y': { input: 9, output: 9 } }));
    const prices = await loadPrices({ env: { PIE_PRICES: join(dir, 'missing.json') }, file });
    expect(prices['x:y']).toEqual({ input: 9, output: 9 });
  });

  const badFiles: [string, string | null, string, RegExp][] = [
    [
      'missing file',
      null,
      'FILE_NOT_FOUND',
      /PIE_PRICES .*missing\.json cannot be read; fix the path or unset PIE_PRICES\./,
    ],
    ['not JSON', '{ nope', 'UNREADABLE_INPUT', /is not valid JSON; write it like \{"openai:gpt-5-mini"/],
    [
      'wrong shape',
      JSON.stringify({ 'openai:gpt-5': { input: 'cheap', output: 1 } }),
      'INVALID_DATA',
      /is not a price table \(.*at openai:gpt-5\.input\)/,
    ],
    ['negative price', JSON.stringify({ m: { input: -1, output: 1 } }), 'INVALID_DATA', /is not a price table/],
  ];
  it.each(badFiles)('explains a bad file: %s', async (_name, content, code, message) => {
    const file = join(dir, content === null ? 'missing.json' : 'prices.json');
    if (content !== null) await writeFile(file, content);
    const error = await loadPrices({ env: { PIE_PRICES: file } }).catch((e: unknown) => e);
    expect(isPieError(error)).toBe(true);
    expect((error as { code: string }).code).toBe(code);
    expect((error as Error).message).toMatch(message);
  });
});
