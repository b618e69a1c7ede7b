import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { Env } from '../config/config.js';
import { PieError } from '../domain/errors.js';
import type { ModelRef } from '../ports/llm.js';
import { formatModelRef } from './select.js';

/** USD per 1M tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/** Keys are `provider:model` (e.g. "openai:gpt-5-mini") or a bare model name, which matches on any provider. */
export type PriceTable = Record<string, ModelPrice>;

/**
 * List prices (standard tier; no batch, prompt-caching or long-context rates), USD per 1M tokens, as published by
 * OpenAI and Anthropic and checked against public price tables on 2026-11-22. They are ESTIMATES: providers change
 * prices, and reasoning tokens are billed as output. Override or extend with a JSON file named by PIE_PRICES.
 * A model id with a date suffix ("claude-sonnet-4-5-20250929", "gpt-4o-2024-08-06") uses its family's price.
 */
export const DEFAULT_PRICES: PriceTable = {
  'openai:gpt-5': { input: 1.25, output: 10 },
  'openai:gpt-5.1': { input: 1.25, output: 10 },
  'openai:gpt-5-mini': { input: 0.25, output: 2 },
  'openai:gpt-5-nano': { input: 0.05, output: 0.4 },
  'openai:gpt-5-pro': { input: 15, output: 120 },
  'openai:gpt-4o': { input: 2.5, output: 10 },
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6 },
  'openai:gpt-4.1': { input: 2, output: 8 },
  'openai:gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'openai:gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'openai:o3': { input: 2, output: 8 },
  'openai:o3-mini': { input: 1.1, output: 4.4 },
  'openai:o4-mini': { input: 1.1, output: 4.4 },
  'anthropic:claude-sonnet-4-5': { input: 3, output: 15 },
  'anthropic:claude-sonnet-4-0': { input: 3, output: 15 },
  'anthropic:claude-sonnet-4': { input: 3, output: 15 },
  'anthropic:claude-3-7-sonnet': { input: 3, output: 15 },
  'anthropic:claude-opus-4-5': { input: 5, output: 25 },
  'anthropic:claude-opus-4-1': { input: 15, output: 75 },
  'anthropic:claude-opus-4-0': { input: 15, output: 75 },
  'anthropic:claude-opus-4': { input: 15, output: 75 },
  'anthropic:claude-haiku-4-5': { input: 1, output: 5 },
  'anthropic:claude-3-5-haiku': { input: 0.8, output: 4 },
};

export interface CostEstimate {
  usd: number;
  /** False when no price is known for the model: `usd` is then 0 and should be shown as "unknown". */
  known: boolean;
}

const DATE_SUFFIX = /-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/** The price of a model, or null when unknown. Local servers (ollama, loopback/private openai-compatible) are free. */
export function findPrice(input: { prices: PriceTable; ref: ModelRef }): ModelPrice | null {
  const { prices, ref } = input;
  const family = ref.model.replace(DATE_SUFFIX, '');
  const keys = [formatModelRef(ref), `${ref.provider}:${ref.model}`, `${ref.provider}:${family}`, ref.model, family];
  for (const key of keys) {
    const price = prices[key];
    if (price) return price;
  }
  if (ref.provider === 'ollama' || ref.provider === 'fake') return { input: 0, output: 0 };
  if (ref.provider === 'openai-compatible' && ref.baseUrl !== undefined && isLocalUrl(ref.baseUrl)) {
    return { input: 0, output: 0 };
  }
  return null;
}

export function estimateCost(input: {
  prices: PriceTable;
  ref: ModelRef;
  inputTokens: number;
  outputTokens: number;
}): CostEstimate {
  const price = findPrice(input);
  if (!price) return { usd: 0, known: false };
  return { usd: (input.inputTokens * price.input + input.outputTokens * price.output) / 1_000_000, known: true };
}

function isLocalUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false; // not a URL: cannot be shown to be local, so the price stays unknown
  }
  return (
    host === 'localhost' ||
    host === '::1' ||
    host.endsWith('.local') ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host)
  );
}

const priceFileSchema = z.record(
  z.string().min(1),
  z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }),
);

const FILE_SHAPE = '{"openai:gpt-5-mini": {"input": 0.25, "output": 2}} (USD per 1M tokens)';

/**
 * The default price table, overridden entry by entry by the JSON file named by `file` or else by PIE_PRICES.
 * Throws PieError with one actionable sentence when the file is missing or malformed.
 */
export async function loadPrices(input: { env: Env; file?: string }): Promise<PriceTable> {
  const path = input.file ?? (input.env.PIE_PRICES?.trim() || undefined);
  if (path === undefined) return { ...DEFAULT_PRICES };
  const origin = input.file === undefined ? 'PIE_PRICES' : 'The price file';
  const absolute = resolve(path);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (cause) {
    throw new PieError('FILE_NOT_FOUND', `${origin} ${absolute} cannot be read; fix the path or unset PIE_PRICES.`, {
      cause,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new PieError('UNREADABLE_INPUT', `${origin} ${absolute} is not valid JSON; write it like ${FILE_SHAPE}.`, {
      cause,
    });
  }
  const parsed = priceFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
    throw new PieError(
      'INVALID_DATA',
      `${origin} ${absolute} is not a price table (${issue?.message ?? 'invalid'}${where}); write it like ${FILE_SHAPE}.`,
      { details: { issues: parsed.error.issues } },
    );
  }
  return { ...DEFAULT_PRICES, ...parsed.data };
}
