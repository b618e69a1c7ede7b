import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { extractJsonText, parseModelJson } from './parse.js';
import { DEFAULT_RETRY_POLICY, retryDelay } from './retry.js';
import { PieError } from '../domain/errors.js';

describe('extractJsonText', () => {
  const cases: [string, string][] = [
    ['{"a":1}', '{"a":1}'],
    ['  {"a":1}\n', '{"a":1}'],
    ['```json\n{"a":1}\n```', '{"a":1}'],
    ['```\n{"a":1}\n```', '{"a":1}'],
    ['```JSON {"a":1}```', '{"a":1}'],
    ['Here is the result:\n{"a":{"b":2}}\nHope this helps.', '{"a":{"b":2}}'],
    ['[1,2]', '[1,2]'],
    ['no json here', 'no json here'],
  ];
  it.each(cases)('%j → %j', (text, expected) => {
    expect(extractJsonText(text)).toBe(expected);
  });
});

describe('parseModelJson', () => {
  const schema = z.object({ n: z.number() });
  it('returns the validated value', () => {
    expect(parseModelJson({ text: '```json\n{"n": 3}\n```', schema })).toEqual({ ok: true, value: { n: 3 } });
  });
  it('explains bad JSON, an empty answer and schema mismatches', () => {
    expect(parseModelJson({ text: '', schema })).toMatchObject({ ok: false, problem: 'the answer was empty' });
    expect(parseModelJson({ text: '{"n": ', schema })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^the answer is not valid JSON/),
    });
    expect(parseModelJson({ text: '{"n": "x"}', schema })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^the JSON does not match the schema: n: /),
    });
  });
});

describe('retryDelay', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, random: () => 0 };
  const cases: [string, unknown, number, number | null][] = [
    [
      'rate limit with retry-after',
      new PieError('LLM_RATE_LIMITED', 'x', { details: { retryAfterMs: 2500 } }),
      1,
      2500,
    ],
    ['rate limit without retry-after backs off', new PieError('LLM_RATE_LIMITED', 'x'), 3, 2000],
    [
      'transient unavailability backs off',
      new PieError('LLM_UNAVAILABLE', 'x', { details: { transient: true } }),
      1,
      500,
    ],
    ['backoff doubles per attempt', new PieError('LLM_UNAVAILABLE', 'x', { details: { transient: true } }), 5, 8000],
    ['final unavailability', new PieError('LLM_UNAVAILABLE', 'x', { details: { transient: false } }), 1, null],
    ['other errors are final', new Error('bug'), 1, null],
    ['the last attempt is final', new PieError('LLM_RATE_LIMITED', 'x'), 6, null],
  ];
  it.each(cases)('%s', (_name, error, attempt, expected) => {
    expect(retryDelay({ error, attempt, policy })).toBe(expected);
  });
});

describe('backoff cap', () => {
  it('never waits longer than maxDelayMs', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 20, random: () => 0.999 };
    const error = new PieError('LLM_UNAVAILABLE', 'x', { details: { transient: true } });
    expect(retryDelay({ error, attempt: 12, policy })).toBeLessThanOrEqual(30_000);
  });
});
