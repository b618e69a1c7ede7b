import { describe, expect, it } from 'vitest';
import { REDACTION_CATEGORIES } from './detectors.js';
import { isCloud, redactionPolicy } from './policy.js';
import { createRedactor } from './redactor.js';

describe('redactor', () => {
  it('gives each distinct value one placeholder and maps an answer back', () => {
    const r = createRedactor(new Set(REDACTION_CATEGORIES));
    const a = r.redact('Mail maya@x.org or bo@y.org; again maya@x.org. Key sk-abcdefghijklmnopqrstuvwx.');
    expect(a).toBe('Mail ⟦EMAIL_1⟧ or ⟦EMAIL_2⟧; again ⟦EMAIL_1⟧. Key ⟦SECRET_1⟧.');
    expect(r.redact('reply to bo@y.org')).toBe('reply to ⟦EMAIL_2⟧');
    expect(r.counts()).toEqual({ email: 2, secret: 1 });
    expect(r.restore('Maya (⟦EMAIL_1⟧) and ⟦EMAIL_9⟧')).toBe('Maya (maya@x.org) and ⟦EMAIL_9⟧');
  });

  it('restores inside JSON text as a valid string body', () => {
    const r = createRedactor(new Set(['secret'] as const));
    r.redact('my password is back\\slash99');
    const json = r.restore('{"state":{"password":"⟦SECRET_1⟧"}}', { json: true });
    expect(JSON.parse(json)).toEqual({ state: { password: 'back\\slash99' } });
  });
});

describe('redaction policy', () => {
  const env = (PIE_REDACT?: string) => (PIE_REDACT === undefined ? {} : { PIE_REDACT });
  it('is on for cloud providers and off for local ones by default', () => {
    expect(redactionPolicy({ ref: { provider: 'openai', model: 'm' }, env: env() }).size).toBe(
      REDACTION_CATEGORIES.length,
    );
    expect(redactionPolicy({ ref: { provider: 'ollama', model: 'm' }, env: env() }).size).toBe(0);
    expect(isCloud({ provider: 'openai-compatible', model: 'm', baseUrl: 'http://127.0.0.1:8080/v1' })).toBe(false);
    expect(isCloud({ provider: 'openai-compatible', model: 'm', baseUrl: 'https://api.together.xyz/v1' })).toBe(true);
    expect(isCloud({ provider: 'fake', model: 'x.json' })).toBe(false);
  });

  it('PIE_REDACT chooses: off, on, or a list of categories; an unknown one is one sentence', () => {
    expect(redactionPolicy({ ref: { provider: 'openai', model: 'm' }, env: env('off') }).size).toBe(0);
    expect([...redactionPolicy({ ref: { provider: 'fake', model: 'x' }, env: env('on') })]).toEqual([
      ...REDACTION_CATEGORIES,
    ]);
    expect([...redactionPolicy({ ref: { provider: 'openai', model: 'm' }, env: env('secret, email') })]).toEqual([
      'secret',
      'email',
    ]);
    expect(() => redactionPolicy({ ref: { provider: 'openai', model: 'm' }, env: env('secrets') })).toThrow(
      'PIE_REDACT names "secrets", not a category; use auto, on, off or a list of secret, email, phone, card, iban, government_id, address.',
    );
  });
});

describe('redacting decorators', () => {
  it('the model sees placeholders and its answer comes back with the values; the embedder sees placeholders', async () => {
    const { redactingEmbedder, redactingModel } = await import('./redacting-model.js');
    const seen: string[] = [];
    const model = redactingModel({
      model: {
        ref: { provider: 'openai', model: 'm' },
        generate: async (request) => {
          seen.push(...request.messages.map((m) => m.content));
          return { text: '{"email":"⟦EMAIL_1⟧"}', inputTokens: 1, outputTokens: 1 };
        },
      },
      categories: new Set(REDACTION_CATEGORIES),
    });
    const answer = await model.generate({
      prompt: 'x@1',
      messages: [{ role: 'user', content: 'Maya is maya@x.org' }],
      jsonSchema: {},
    });
    expect(seen).toEqual(['Maya is ⟦EMAIL_1⟧']);
    expect(JSON.parse(answer.text)).toEqual({ email: 'maya@x.org' });
    const embedded: string[] = [];
    const embedder = redactingEmbedder({
      embedder: {
        model: 'e',
        dimensions: 1,
        embed: async (texts) => {
          embedded.push(...texts);
          return texts.map(() => [0]);
        },
      },
      categories: new Set(['email'] as const),
    });
    await embedder.embed(['write to bo@y.org']);
    expect(embedded).toEqual(['write to ⟦EMAIL_1⟧']);
  });
});
