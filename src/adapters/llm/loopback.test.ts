/**
 * The real HTTP path: a tiny node:http server speaking the OpenAI chat-completions API on 127.0.0.1, exercised
 * through the openai-compatible provider (no external network exists here).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isPieError, type PieError } from '../../domain/errors.js';
import { createLlmClient } from '../../llm/client.js';
import { DEFAULT_PRICES } from '../../llm/prices.js';
import { definePrompt } from '../../llm/prompt.js';
import type { WorldStore } from '../../ports/world-store.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { createLanguageModel } from './ai-sdk.js';

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Never answer (for timeouts). */
  hang?: boolean;
}

interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

function completion(content: string): Reply {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'local-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
    },
  };
}

function failure(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return { status, headers, body: { error: { message, type: 'test_error' } } };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

const count = definePrompt({
  name: 'count',
  version: 1,
  schema: z.object({ n: z.number() }),
  render: (what: string) => [
    { role: 'system', content: 'You count things.' },
    { role: 'user', content: `How many ${what}?` },
  ],
});

describe('openai-compatible over loopback HTTP', () => {
  let server: Server;
  let baseUrl: string;
  let replies: Reply[];
  let received: Received[];
  let dir: string;
  let store: WorldStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pie-loopback-'));
    store = await openSqliteStore({ path: join(dir, 'pie.db') });
    replies = [];
    received = [];
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const text = await readBody(req);
        received.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
        const reply = replies.shift() ?? failure(500, 'no reply scripted');
        if (reply.hang) return;
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.body ?? {}));
      })();
    });
    baseUrl = `http://127.0.0.1:${await listen(server)}/v1`;
  });
  afterEach(async () => {
    await close(server);
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  function model(env: Record<string, string> = {}, timeoutMs?: number) {
    return createLanguageModel({
      ref: { provider: 'openai-compatible', model: 'local-model', baseUrl },
      env,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
  }

  it('sends a json_schema chat completion and reads the answer and usage', async () => {
    replies.push(completion('{"n": 3}'));
    const response = await model({ PIE_LLM_API_KEY: 'sekrit' }).generate({
      prompt: 'count@1',
      messages: count.render('apples'),
      jsonSchema: count.jsonSchema,
      schemaName: 'count',
      maxOutputTokens: 50,
    });
    expect(response).toEqual({ text: '{"n": 3}', inputTokens: 42, outputTokens: 7, finishReason: 'stop' });
    const [request] = received;
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sekrit');
    expect(request?.body).toMatchObject({
      model: 'local-model',
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'You count things.' },
        { role: 'user', content: 'How many apples?' },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'count', strict: false, schema: count.jsonSchema } },
    });
  });

  it('maps a 429 with retry-after to LLM_RATE_LIMITED, and the client waits and retries', async () => {
    replies.push(failure(429, 'Too many requests', { 'retry-after': '3' }), completion('{"n": 5}'));
    const sleeps: number[] = [];
    const client = createLlmClient({
      model: model(),
      cache: store.llmCache,
      clock: { now: () => 0 },
      prices: DEFAULT_PRICES,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const result = await client.generate({ prompt: count, input: 'pears' });
    expect(result.object).toEqual({ n: 5 });
    expect(sleeps).toEqual([3000]);
    expect(received).toHaveLength(2);
    expect(result.usage).toEqual({ inputTokens: 42, outputTokens: 7, costUsd: 0, cachedCalls: 0, calls: 1 });
  });

  it('reports the rate limit itself with retryAfterMs', async () => {
    replies.push(failure(429, 'Too many requests', { 'retry-after-ms': '1200' }));
    const error = await model()
      .generate({ prompt: 'count@1', messages: count.render('x') })
      .catch((e: unknown) => e);
    expect(isPieError(error, 'LLM_RATE_LIMITED')).toBe(true);
    expect((error as PieError).details).toMatchObject({ retryAfterMs: 1200, transient: true });
  });

  const statusCases: [number, RegExp, boolean][] = [
    [401, /rejected the credentials \(HTTP 401: bad key\); check PIE_LLM_API_KEY\.$/, false],
    [404, /has no model "local-model" \(HTTP 404: .*\); check the model name\.$/, false],
    [400, /refused the request \(HTTP 400: bad key\)\.$/, false],
    [503, /failed \(HTTP 503: bad key\); PIE retries such errors\.$/, true],
  ];
  it.each(statusCases)('maps HTTP %i to LLM_UNAVAILABLE', async (status, message, transient) => {
    replies.push(failure(status, 'bad key'));
    const error = await model()
      .generate({ prompt: 'count@1', messages: count.render('x') })
      .catch((e: unknown) => e);
    expect(isPieError(error, 'LLM_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect((error as PieError).details?.transient).toBe(transient);
  });

  it('falls back to instructions when the server rejects response_format', async () => {
    replies.push(failure(400, "'response_format.type' must be 'text'"), completion('```json\n{"n": 9}\n```'));
    const client = createLlmClient({
      model: model(),
      cache: store.llmCache,
      clock: { now: () => 0 },
      prices: DEFAULT_PRICES,
    });
    expect((await client.generate({ prompt: count, input: 'plums' })).object).toEqual({ n: 9 });
    expect(received[1]?.body.response_format).toBeUndefined();
    const messages = received[1]?.body.messages as { role: string; content: string }[];
    expect(messages[0]?.content).toContain('It must match this JSON Schema');
  });

  it('maps a request that times out to a transient LLM_UNAVAILABLE', async () => {
    replies.push({ status: 200, hang: true });
    const error = await model({}, 300)
      .generate({ prompt: 'count@1', messages: count.render('x') })
      .catch((e: unknown) => e);
    expect(isPieError(error, 'LLM_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toMatch(/did not answer after 300 ms; PIE retries such errors/);
    expect((error as PieError).details?.transient).toBe(true);
  });
});

describe('unreachable server', () => {
  it('reports a closed port as LLM_UNAVAILABLE naming the URL', async () => {
    const probe = createServer();
    const port = await listen(probe);
    await close(probe);
    const url = `http://127.0.0.1:${port}/v1`;
    const error = await createLanguageModel({
      ref: { provider: 'openai-compatible', model: 'm', baseUrl: url },
      env: {},
    })
      .generate({ prompt: 'count@1', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(isPieError(error, 'LLM_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toBe(
      `Could not reach the OpenAI-compatible server at ${url}: connection refused (ECONNREFUSED); check that the server runs and the URL is right.`,
    );
    expect((error as PieError).details?.transient).toBe(false);
  });
});
