import { describe, expect, it } from 'vitest';
import { PieError } from '../domain/errors.js';
import type { ModelRef } from '../ports/llm.js';
import { formatModelRef, parseModelRef, selectModel } from './select.js';

describe('parseModelRef', () => {
  const good: [string, ModelRef][] = [
    ['openai:gpt-5-mini', { provider: 'openai', model: 'gpt-5-mini' }],
    ['anthropic:claude-sonnet-4-5', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['ollama:qwen2.5:14b', { provider: 'ollama', model: 'qwen2.5:14b' }],
    ['  OpenAI:gpt-4o  ', { provider: 'openai', model: 'gpt-4o' }],
    [
      'openai-compatible:http://127.0.0.1:8080/v1#model',
      { provider: 'openai-compatible', model: 'model', baseUrl: 'http://127.0.0.1:8080/v1' },
    ],
    [
      'openai-compatible:https://llm.lan/v1/#org/qwen:32b',
      { provider: 'openai-compatible', model: 'org/qwen:32b', baseUrl: 'https://llm.lan/v1' },
    ],
  ];
  it.each(good)('parses %s', (text, ref) => {
    expect(parseModelRef(text)).toEqual(ref);
  });

  const bad: [string, RegExp][] = [
    ['gpt-5-mini', /does not name a provider; write provider:model/],
    ['', /does not name a provider/],
    [':gpt-5', /does not name a provider/],
    ['gemini:pro', /Unknown LLM provider "gemini".*openai, anthropic, ollama, openai-compatible/],
    ['openai:', /names no model; write openai:<model>/],
    ['openai-compatible:http://127.0.0.1:8080/v1', /needs a base URL and a model/],
    ['openai-compatible:#model', /needs a base URL and a model/],
    ['openai-compatible:not a url#m', /is not a URL/],
    ['openai-compatible:ftp://host/v1#m', /must start with http/],
  ];
  it.each(bad)('rejects %j with a sentence', (text, message) => {
    let caught: unknown;
    try {
      parseModelRef(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PieError);
    expect((caught as PieError).code).toBe('INVALID_ARGUMENT');
    expect((caught as PieError).message).toMatch(message);
  });

  it('formats refs back to text', () => {
    for (const [text] of good.slice(0, 3)) expect(formatModelRef(parseModelRef(text))).toBe(text);
    expect(formatModelRef(parseModelRef('openai-compatible:http://h:1/v1#m'))).toBe(
      'openai-compatible:http://h:1/v1#m',
    );
  });
});

describe('selectModel precedence', () => {
  const cases: [string, { flag?: string; env: Record<string, string> }, string | null, string | null][] = [
    [
      'flag wins over everything',
      { flag: 'ollama:llama3.1:8b', env: { PIE_LLM: 'openai:gpt-4o', OPENAI_API_KEY: 'k' } },
      'ollama:llama3.1:8b',
      '--llm',
    ],
    [
      'PIE_LLM over keys',
      { env: { PIE_LLM: 'anthropic:claude-haiku-4-5', OPENAI_API_KEY: 'k' } },
      'anthropic:claude-haiku-4-5',
      'PIE_LLM',
    ],
    [
      'OpenAI key → gpt-5-mini',
      { env: { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' } },
      'openai:gpt-5-mini',
      'OPENAI_API_KEY',
    ],
    ['Anthropic key → sonnet', { env: { ANTHROPIC_API_KEY: 'k' } }, 'anthropic:claude-sonnet-4-5', 'ANTHROPIC_API_KEY'],
    ['nothing → offline', { env: {} }, null, null],
    ['empty values count as unset', { flag: ' ', env: { PIE_LLM: '', OPENAI_API_KEY: '  ' } }, null, null],
  ];
  it.each(cases)('%s', (_name, input, expected, source) => {
    const selection = selectModel(input);
    expect(selection === null ? null : formatModelRef(selection.ref)).toBe(expected);
    expect(selection?.source ?? null).toBe(source);
  });

  it('reports a bad PIE_LLM as INVALID_ARGUMENT', () => {
    expect(() => selectModel({ env: { PIE_LLM: 'gpt-5' } })).toThrow(/does not name a provider/);
  });
});
