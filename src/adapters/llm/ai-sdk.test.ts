import { APICallError, simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { isPieError, type PieError } from '../../domain/errors.js';
import type { ModelRequest } from '../../ports/llm.js';
import { createAiSdkModel, createLanguageModel } from './ai-sdk.js';
import type { ProviderSetup } from './providers.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

function answer(text: string, finish: 'stop' | 'length' = 'stop'): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: finish, raw: finish },
    usage: {
      inputTokens: { total: 120, noCache: 120, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 30, text: 30, reasoning: 0 },
    },
    warnings: [],
  };
}

function setupFor(mock: MockLanguageModelV3): ProviderSetup {
  return {
    model: mock,
    ref: { provider: 'openai', model: 'mock' },
    context: {
      provider: 'openai',
      model: 'mock',
      url: 'https://api.openai.com/v1',
      keyEnv: 'OPENAI_API_KEY',
      local: false,
    },
    providerOptions: { openai: { strictJsonSchema: false } },
  };
}

const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
const structured: ModelRequest = {
  prompt: 'count@1',
  messages: [
    { role: 'system', content: 'You count.' },
    { role: 'user', content: 'How many?' },
  ],
  jsonSchema: schema,
  schemaName: 'count',
  maxOutputTokens: 100,
};

describe('AI SDK adapter (MockLanguageModelV3)', () => {
  it('asks for JSON matching the schema and maps text, usage and finish reason', async () => {
    const mock = new MockLanguageModelV3({ doGenerate: answer('{"n":3}') });
    const model = createAiSdkModel({ setup: setupFor(mock) });
    const response = await model.generate(structured);
    expect(response).toEqual({ text: '{"n":3}', inputTokens: 120, outputTokens: 30, finishReason: 'stop' });
    const call = mock.doGenerateCalls[0];
    expect(call?.responseFormat).toEqual({ type: 'json', schema, name: 'count' });
    expect(call?.maxOutputTokens).toBe(100);
    expect(call?.prompt[0]).toEqual({ role: 'system', content: 'You count.' });
    expect(call?.prompt[1]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'How many?' }] });
    expect(call?.providerOptions).toEqual({ openai: { strictJsonSchema: false } });
  });

  it('hands unparsable answers to the core instead of throwing', async () => {
    const mock = new MockLanguageModelV3({ doGenerate: answer('{"n": 3', 'length') });
    const response = await createAiSdkModel({ setup: setupFor(mock) }).generate(structured);
    expect(response).toEqual({ text: '{"n": 3', inputTokens: 120, outputTokens: 30, finishReason: 'length' });
  });

  it('sends free-text requests without a response format', async () => {
    const mock = new MockLanguageModelV3({ doGenerate: answer('hello') });
    const { jsonSchema: _omit, ...text } = structured;
    expect((await createAiSdkModel({ setup: setupFor(mock) }).generate(text)).text).toBe('hello');
    expect(mock.doGenerateCalls[0]?.responseFormat).toBeUndefined();
  });

  it('translates provider errors in one place', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new APICallError({
          message: 'Rate limit reached',
          url: 'https://api.openai.com/v1/responses',
          requestBodyValues: {},
          statusCode: 429,
          responseHeaders: { 'retry-after': '2' },
          isRetryable: true,
        });
      },
    });
    const error = await createAiSdkModel({ setup: setupFor(mock) })
      .generate(structured)
      .catch((e: unknown) => e);
    expect(isPieError(error, 'LLM_RATE_LIMITED')).toBe(true);
    expect((error as PieError).details).toMatchObject({ retryAfterMs: 2000, status: 429 });
    expect(mock.doGenerateCalls).toHaveLength(1); // maxRetries: 0 — the core client retries
  });

  it('falls back to schema-in-instructions when the server rejects structured output', async () => {
    let calls = 0;
    const mock = new MockLanguageModelV3({
      doGenerate: async () => {
        calls++;
        if (calls === 1) {
          throw new APICallError({
            message: "'response_format.type' must be 'json_schema' or 'text'",
            url: 'http://127.0.0.1:1234/v1/chat/completions',
            requestBodyValues: {},
            statusCode: 400,
          });
        }
        return answer('{"n":1}');
      },
    });
    const model = createAiSdkModel({ setup: setupFor(mock) });
    expect((await model.generate(structured)).text).toBe('{"n":1}');
    expect((await model.generate(structured)).text).toBe('{"n":1}');
    const [first, second, third] = mock.doGenerateCalls;
    expect(first?.responseFormat).toMatchObject({ type: 'json' });
    expect(second?.responseFormat).toBeUndefined();
    expect(second?.prompt[0]).toMatchObject({ role: 'system', content: expect.stringContaining('"required":["n"]') });
    expect(third?.responseFormat).toBeUndefined(); // remembered
  });
});

describe('createLanguageModel configuration', () => {
  const cases: [string, Parameters<typeof createLanguageModel>[0], RegExp][] = [
    [
      'openai without a key',
      { ref: { provider: 'openai', model: 'gpt-5-mini' }, env: {} },
      /^OPENAI_API_KEY is not set; export it, or choose another model with --llm or PIE_LLM\.$/,
    ],
    [
      'anthropic without a key',
      { ref: { provider: 'anthropic', model: 'claude-sonnet-4-5' }, env: { OPENAI_API_KEY: 'x' } },
      /^ANTHROPIC_API_KEY is not set/,
    ],
    ['fake is not a real provider', { ref: { provider: 'fake', model: 'x' }, env: {} }, /fake model is for tests/],
    [
      'bad PIE_OLLAMA_NUM_CTX',
      { ref: { provider: 'ollama', model: 'qwen2.5:14b' }, env: { PIE_OLLAMA_NUM_CTX: 'big' } },
      /PIE_OLLAMA_NUM_CTX "big"/,
    ],
  ];
  it.each(cases)('%s', (_name, options, message) => {
    expect(() => createLanguageModel(options)).toThrow(message);
  });

  it('fills in the effective base URL so the cache tells servers apart', () => {
    expect(createLanguageModel({ ref: { provider: 'ollama', model: 'qwen2.5:14b' }, env: {} }).ref).toEqual({
      provider: 'ollama',
      model: 'qwen2.5:14b',
      baseUrl: 'http://127.0.0.1:11434/api',
    });
    expect(
      createLanguageModel({ ref: { provider: 'openai', model: 'gpt-5-mini' }, env: { OPENAI_API_KEY: 'k' } }).ref,
    ).toEqual({
      provider: 'openai',
      model: 'gpt-5-mini',
    });
    expect(
      createLanguageModel({
        ref: { provider: 'openai', model: 'gpt-5-mini' },
        env: { OPENAI_BASE_URL: 'http://proxy:4000/v1/' },
      }).ref,
    ).toEqual({ provider: 'openai', model: 'gpt-5-mini', baseUrl: 'http://proxy:4000/v1' });
  });

  it('streams a free-text answer piece by piece when asked, with usage and finish reason', async () => {
    const usage = {
      inputTokens: { total: 50, noCache: 50, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 6, text: 6, reasoning: 0 },
    };
    const mock = new MockLanguageModelV3({
      doStream: {
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'Tidepool ' },
            { type: 'text-delta', id: 't', delta: 'pivoted ' },
            { type: 'text-delta', id: 't', delta: 'in March.' },
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
          ],
        }),
      },
    });
    const pieces: string[] = [];
    const response = await createAiSdkModel({ setup: setupFor(mock) }).generate({
      prompt: 'answer@1',
      messages: [{ role: 'user', content: 'What happened?' }],
      onText: (d) => pieces.push(d),
    });
    expect(pieces).toEqual(['Tidepool ', 'pivoted ', 'in March.']);
    expect(response).toEqual({
      text: 'Tidepool pivoted in March.',
      inputTokens: 50,
      outputTokens: 6,
      finishReason: 'stop',
    });
    expect(mock.doGenerateCalls).toHaveLength(0);
  });

  it('turns an error in the stream into the same PieError as a failed call', async () => {
    const mock = new MockLanguageModelV3({
      doStream: {
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start', warnings: [] },
            {
              type: 'error',
              error: new APICallError({
                message: 'Rate limit reached',
                url: 'https://api.openai.com/v1/responses',
                requestBodyValues: {},
                statusCode: 429,
                isRetryable: true,
              }),
            },
          ],
        }),
      },
    });
    const error = await createAiSdkModel({ setup: setupFor(mock) })
      .generate({ prompt: 'answer@1', messages: [{ role: 'user', content: 'Hi' }], onText: () => {} })
      .catch((e: unknown) => e);
    expect(isPieError(error) ? error.code : error).toBe('LLM_RATE_LIMITED');
  });
});
