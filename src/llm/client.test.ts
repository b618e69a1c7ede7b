import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, type ScriptedAnswer } from '../adapters/llm/fake.js';
import { openSqliteStore } from '../adapters/store/sqlite/index.js';
import { PieError, isPieError } from '../domain/errors.js';
import type { ModelRef, ModelRequest } from '../ports/llm.js';
import type { WorldStore } from '../ports/world-store.js';
import { llmCacheKey } from './cache-key.js';
import { createLlmClient, type LlmClientOptions } from './client.js';
import { DEFAULT_PRICES } from './prices.js';
import { definePrompt, defineTextPrompt } from './prompt.js';
import type { LlmCallEvent } from './types.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const clock = { now: () => NOW };
const GPT5_MINI: ModelRef = { provider: 'openai', model: 'gpt-5-mini' };

const pet = definePrompt({
  name: 'pet',
  version: 2,
  schema: z.object({ name: z.string().min(1), legs: z.number().int() }),
  render: (input: { animal: string }) => [
    { role: 'system', content: 'Answer as JSON.' },
    { role: 'user', content: `Describe a ${input.animal}.` },
  ],
});

const haiku = defineTextPrompt({
  name: 'haiku',
  version: 1,
  render: (topic: string) => [{ role: 'user', content: `A haiku about ${topic}.` }],
});

describe('LlmClient', () => {
  let dir: string;
  let store: WorldStore;
  let sleeps: number[];
  let events: LlmCallEvent[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pie-llm-client-'));
    store = await openSqliteStore({ path: join(dir, 'pie.db') });
    sleeps = [];
    events = [];
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  function setup(script: Record<string, ScriptedAnswer[]>, extra: Partial<LlmClientOptions> = {}) {
    const model = createScriptedModel({ script, ref: GPT5_MINI });
    const client = createLlmClient({
      model,
      cache: store.llmCache,
      clock,
      prices: DEFAULT_PRICES,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      retry: { random: () => 0.5 },
      onCall: (event) => events.push(event),
      ...extra,
    });
    return { model, client };
  }

  it('validates, accounts cost from the price table, and caches a valid answer', async () => {
    const { model, client } = setup({ 'pet@2': [{ name: 'Rex', legs: 4 }] });
    const first = await client.generate({ prompt: pet, input: { animal: 'dog' } });
    expect(first.object).toEqual({ name: 'Rex', legs: 4 });
    expect(first.cached).toBe(false);
    const inputTokens = Math.ceil(('Answer as JSON.'.length + 'Describe a dog.'.length) / 4);
    const outputTokens = Math.ceil('{"name":"Rex","legs":4}'.length / 4);
    const usd = (inputTokens * 0.25 + outputTokens * 2) / 1_000_000;
    expect(first.usage).toEqual({ inputTokens, outputTokens, costUsd: usd, cachedCalls: 0, calls: 1 });
    expect(events).toEqual([
      expect.objectContaining({
        prompt: 'pet@2',
        model: 'openai:gpt-5-mini',
        outcome: 'valid',
        costUsd: usd,
        costKnown: true,
      }),
    ]);
    expect(model.calls[0]).toMatchObject({ prompt: 'pet@2', schemaName: 'pet', jsonSchema: pet.jsonSchema });

    const key = llmCacheKey({
      ref: GPT5_MINI,
      prompt: 'pet@2',
      messages: pet.render({ animal: 'dog' }),
      jsonSchema: pet.jsonSchema,
    });
    const entry = await store.llmCache.get(key);
    expect(entry).toMatchObject({
      model: 'openai:gpt-5-mini',
      prompt: 'pet@2',
      tokensIn: inputTokens,
      tokensOut: outputTokens,
      createdAt: NOW,
    });
  });

  it('answers a repeated request from the cache: no model call, no cost', async () => {
    const { model, client } = setup({ 'pet@2': [{ name: 'Rex', legs: 4 }] });
    await client.generate({ prompt: pet, input: { animal: 'dog' } });
    const again = await client.generate({ prompt: pet, input: { animal: 'dog' } });
    expect(again).toEqual({
      object: { name: 'Rex', legs: 4 },
      cached: true,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0, cachedCalls: 1, calls: 0 },
    });
    expect(model.calls).toHaveLength(1);
    expect(events.map((e) => e.outcome)).toEqual(['valid', 'cached']);
  });

  it('does not share cache entries across models or inputs', async () => {
    const { client } = setup({
      'pet@2': [
        { name: 'Rex', legs: 4 },
        { name: 'Tom', legs: 4 },
      ],
    });
    await client.generate({ prompt: pet, input: { animal: 'dog' } });
    expect((await client.generate({ prompt: pet, input: { animal: 'cat' } })).object.name).toBe('Tom');
    const other = createLlmClient({
      model: createScriptedModel({
        script: { 'pet@2': [{ name: 'Kit', legs: 4 }] },
        ref: { provider: 'ollama', model: 'qwen2.5:14b' },
      }),
      cache: store.llmCache,
      clock,
      prices: DEFAULT_PRICES,
    });
    expect((await other.generate({ prompt: pet, input: { animal: 'dog' } })).object.name).toBe('Kit');
  });

  it('retries invalid JSON once with the problem appended, then succeeds', async () => {
    const { model, client } = setup({
      'pet@2': ['```json\n{"name": "Rex", "legs": "four"}\n```', '```json\n{"name":"Rex","legs":4}\n```'],
    });
    const result = await client.generate({ prompt: pet, input: { animal: 'dog' } });
    expect(result.object).toEqual({ name: 'Rex', legs: 4 });
    expect(result.usage.calls).toBe(2);
    const retry = model.calls[1]?.messages ?? [];
    expect(retry).toHaveLength(4);
    expect(retry[2]).toEqual({ role: 'assistant', content: '```json\n{"name": "Rex", "legs": "four"}\n```' });
    expect(retry[3]?.role).toBe('user');
    expect(retry[3]?.content).toMatch(/could not be used: the JSON does not match the schema: legs: .*number/);
    expect(events.map((e) => e.outcome)).toEqual(['invalid', 'valid']);
    // The valid answer is cached under the ORIGINAL request.
    const again = await client.generate({ prompt: pet, input: { animal: 'dog' } });
    expect(again.cached).toBe(true);
  });

  it('throws LLM_INVALID_OUTPUT after two invalid answers and caches nothing', async () => {
    const { client } = setup({ 'pet@2': ['not json at all', '{"name": ""}'] });
    const error = await client.generate({ prompt: pet, input: { animal: 'dog' } }).catch((e: unknown) => e);
    expect(isPieError(error, 'LLM_INVALID_OUTPUT')).toBe(true);
    const pieError = error as PieError;
    expect(pieError.message).toMatch(
      /openai:gpt-5-mini gave an unusable answer to pet@2 twice \(the JSON does not match the schema: name: .*; legs: /,
    );
    expect(pieError.details).toMatchObject({ raw: '{"name": ""}', firstRaw: 'not json at all', prompt: 'pet@2' });
    expect((pieError.details?.usage as { calls: number }).calls).toBe(2);
    const key = llmCacheKey({
      ref: GPT5_MINI,
      prompt: 'pet@2',
      messages: pet.render({ animal: 'dog' }),
      jsonSchema: pet.jsonSchema,
    });
    expect(await store.llmCache.get(key)).toBeNull();
  });

  it('sleeps what a 429 asked for, then succeeds', async () => {
    const limited = new PieError('LLM_RATE_LIMITED', 'slow down', { details: { retryAfterMs: 1500, transient: true } });
    const { model, client } = setup({ 'pet@2': [limited, limited, { name: 'Rex', legs: 4 }] });
    const retries: number[] = [];
    const result = await createLlmClient({
      model,
      cache: store.llmCache,
      clock,
      prices: DEFAULT_PRICES,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      onRetry: (event) => retries.push(event.attempt),
    }).generate({ prompt: pet, input: { animal: 'dog' } });
    expect(result.object.name).toBe('Rex');
    expect(sleeps).toEqual([1500, 1500]);
    expect(retries).toEqual([1, 2]);
    expect(model.calls).toHaveLength(3);
    expect(client.priceKnown).toBe(true);
  });

  it('backs off exponentially with jitter on transient errors and gives up after maxAttempts', async () => {
    const down = () => new PieError('LLM_UNAVAILABLE', 'HTTP 503', { details: { transient: true } });
    const { model, client } = setup({ 'pet@2': [down(), down(), down()] }, { maxAttempts: 3 });
    const error = await client.generate({ prompt: pet, input: { animal: 'dog' } }).catch((e: unknown) => e);
    expect(isPieError(error, 'LLM_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toBe('HTTP 503 (gave up after 3 attempts)');
    // random() = 0.5 → 75 % of the step: 1000 → 750, 2000 → 1500.
    expect(sleeps).toEqual([750, 1500]);
    expect(model.calls).toHaveLength(3);
  });

  it('uses exponential backoff for a 429 without retry-after', async () => {
    const limited = new PieError('LLM_RATE_LIMITED', 'slow down');
    const { client } = setup({ 'pet@2': [limited, limited, { name: 'Rex', legs: 4 }] });
    await client.generate({ prompt: pet, input: { animal: 'dog' } });
    expect(sleeps).toEqual([750, 1500]);
  });

  it('fails immediately on a non-transient error', async () => {
    const denied = new PieError('LLM_UNAVAILABLE', 'OpenAI rejected the credentials; check OPENAI_API_KEY.', {
      details: { transient: false },
    });
    const { model, client } = setup({ 'pet@2': [denied, { name: 'never', legs: 0 }] });
    await expect(client.generate({ prompt: pet, input: { animal: 'dog' } })).rejects.toBe(denied);
    expect(sleeps).toEqual([]);
    expect(model.calls).toHaveLength(1);
  });

  it('does not wait for a server asking for a very long pause', async () => {
    const limited = new PieError('LLM_RATE_LIMITED', 'daily limit', { details: { retryAfterMs: 3_600_000 } });
    const { client } = setup({ 'pet@2': [limited] });
    await expect(client.generate({ prompt: pet, input: { animal: 'dog' } })).rejects.toBe(limited);
    expect(sleeps).toEqual([]);
  });

  it('reports unknown prices as unknown', async () => {
    const model = createScriptedModel({
      script: { 'pet@2': [{ name: 'Rex', legs: 4 }] },
      ref: { provider: 'openai', model: 'gpt-9' },
    });
    const client = createLlmClient({
      model,
      cache: store.llmCache,
      clock,
      prices: DEFAULT_PRICES,
      onCall: (e) => events.push(e),
    });
    expect(client.priceKnown).toBe(false);
    const result = await client.generate({ prompt: pet, input: { animal: 'dog' } });
    expect(result.usage.costUsd).toBe(0);
    expect(events[0]?.costKnown).toBe(false);
  });

  it('generates free text, retrying an empty answer once, and caches it', async () => {
    const { model, client } = setup({ 'haiku@1': ['  ', 'old pond / a frog jumps in / splash'] });
    const result = await client.generateText({ prompt: haiku, input: 'frogs' });
    expect(result.text).toBe('old pond / a frog jumps in / splash');
    expect(model.calls[0]?.jsonSchema).toBeUndefined();
    expect((await client.generateText({ prompt: haiku, input: 'frogs' })).cached).toBe(true);
  });

  it('passes a free-text answer on as it arrives, and a cached one whole', async () => {
    const { client } = setup({ 'haiku@1': ['old pond / a frog jumps in / splash'] });
    const pieces: string[] = [];
    const result = await client.generateText({ prompt: haiku, input: 'frogs', onText: (d) => pieces.push(d) });
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(result.text);
    const again: string[] = [];
    const cached = await client.generateText({ prompt: haiku, input: 'frogs', onText: (d) => again.push(d) });
    expect(cached.cached).toBe(true);
    expect(again).toEqual(['old pond / a frog jumps in / splash']);
  });

  it('does not retry a streamed answer that failed part-way (it would be shown twice)', async () => {
    const model = createScriptedModel({ script: {}, ref: GPT5_MINI });
    let calls = 0;
    const flaky = {
      ref: model.ref,
      generate: (request: ModelRequest) => {
        calls += 1;
        request.onText?.('old pond ');
        return Promise.reject(new PieError('LLM_UNAVAILABLE', 'dropped', { details: { transient: true } }));
      },
    };
    const client = createLlmClient({
      model: flaky,
      cache: store.llmCache,
      clock,
      prices: DEFAULT_PRICES,
      sleep: async () => {},
    });
    const pieces: string[] = [];
    await expect(client.generateText({ prompt: haiku, input: 'ponds', onText: (d) => pieces.push(d) })).rejects.toThrow(
      'dropped',
    );
    expect(calls).toBe(1);
    expect(pieces).toEqual(['old pond ']);
  });

  it('ignores a cached answer that no longer validates', async () => {
    const { model, client } = setup({ 'pet@2': [{ name: 'Rex', legs: 4 }] });
    const key = llmCacheKey({
      ref: GPT5_MINI,
      prompt: 'pet@2',
      messages: pet.render({ animal: 'dog' }),
      jsonSchema: pet.jsonSchema,
    });
    await store.llmCache.put({
      key,
      model: 'openai:gpt-5-mini',
      prompt: 'pet@2',
      response: '{"bad":1}',
      tokensIn: 1,
      tokensOut: 1,
      createdAt: 0,
    });
    expect((await client.generate({ prompt: pet, input: { animal: 'dog' } })).cached).toBe(false);
    expect(model.calls).toHaveLength(1);
    expect((await store.llmCache.get(key))?.response).toBe('{"name":"Rex","legs":4}');
  });
});
