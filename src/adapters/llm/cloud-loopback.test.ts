/**
 * The cloud providers' real request paths, pointed at a loopback server through OPENAI_BASE_URL and
 * ANTHROPIC_BASE_URL (no external network exists here): what PIE sends, and that the answer comes back.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../ports/llm.js';
import { openAiResponsesReply } from '../../../test/helpers/llm.js';
import { createLanguageModel } from './ai-sdk.js';

interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

const request: ModelRequest = {
  prompt: 'count@1',
  messages: [
    { role: 'system', content: 'You count things.' },
    { role: 'user', content: 'How many apples?' },
  ],
  jsonSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false },
  schemaName: 'count',
  maxOutputTokens: 100,
};

describe('cloud providers over loopback HTTP', () => {
  let server: Server;
  let baseUrl: string;
  let received: Received[];
  let reply: unknown;

  beforeEach(async () => {
    received = [];
    server = createServer((req, res) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        received.push({ url: req.url ?? '', headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply));
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('openai: Responses API with a non-strict JSON schema and store: false', async () => {
    reply = openAiResponsesReply({ text: '{"n":1}', inputTokens: 11, outputTokens: 3 });
    const model = createLanguageModel({
      ref: { provider: 'openai', model: 'gpt-5-mini' },
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseUrl },
    });
    expect(await model.generate(request)).toEqual({
      text: '{"n":1}',
      inputTokens: 11,
      outputTokens: 3,
      finishReason: 'stop',
    });
    const [sent] = received;
    expect(sent?.url).toBe('/v1/responses');
    expect(sent?.headers.authorization).toBe('Bearer sk-test');
    expect(sent?.body).toMatchObject({
      model: 'gpt-5-mini',
      store: false,
      max_output_tokens: 100,
      text: { format: { type: 'json_schema', strict: false, name: 'count', schema: request.jsonSchema } },
    });
  });

  it('ollama: /api/chat with the schema as format and a 16k context window', async () => {
    reply = {
      model: 'qwen2.5:14b',
      created_at: '2026-01-01T00:00:00Z',
      message: { role: 'assistant', content: '{"n":3}' },
      done: true,
      done_reason: 'stop',
      prompt_eval_count: 30,
      eval_count: 5,
    };
    const model = createLanguageModel({
      ref: { provider: 'ollama', model: 'qwen2.5:14b' },
      env: { OLLAMA_BASE_URL: baseUrl.replace(/\/v1$/, '/api') },
    });
    expect(await model.generate(request)).toEqual({
      text: '{"n":3}',
      inputTokens: 30,
      outputTokens: 5,
      finishReason: 'stop',
    });
    const [sent] = received;
    expect(sent?.url).toBe('/api/chat');
    expect(sent?.body).toMatchObject({
      model: 'qwen2.5:14b',
      format: request.jsonSchema,
      options: { num_ctx: 16_384 },
    });
  });

  it('anthropic: Messages API with the system prompt and a JSON output format', async () => {
    reply = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: '{"n":2}' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 4 },
    };
    const model = createLanguageModel({
      ref: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      env: { ANTHROPIC_API_KEY: 'ak-test', ANTHROPIC_BASE_URL: baseUrl },
    });
    expect(await model.generate(request)).toEqual({
      text: '{"n":2}',
      inputTokens: 20,
      outputTokens: 4,
      finishReason: 'stop',
    });
    const [sent] = received;
    expect(sent?.url).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe('ak-test');
    expect(sent?.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system: [{ type: 'text', text: 'You count things.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'How many apples?' }] }],
    });
  });
});
