import { describe, expect, it } from 'vitest';
import type { LanguageModel, ModelRequest } from '../ports/llm.js';
import { redactingModel } from './redacting-model.js';

/** A provider that echoes the placeholder it was sent, streamed in pieces that cut the placeholder in two. */
function echoInPieces(): LanguageModel & { seen: string[] } {
  const seen: string[] = [];
  return {
    ref: { provider: 'openai', model: 'mock' },
    seen,
    generate(request: ModelRequest) {
      const sent = request.messages.map((m) => m.content).join('\n');
      seen.push(sent);
      const placeholder = /⟦[A-Z_]+_\d+⟧/.exec(sent)?.[0] ?? '';
      const text = `Write to ${placeholder} today.`;
      const cut = text.indexOf('⟦') + 4;
      for (const piece of [text.slice(0, cut), text.slice(cut, cut + 3), text.slice(cut + 3)]) request.onText?.(piece);
      return Promise.resolve({ text, inputTokens: 1, outputTokens: 1 });
    },
  };
}

describe('redacting model, streamed', () => {
  it('never passes on a placeholder, even one that arrives in pieces, and the provider never sees the value', async () => {
    const inner = echoInPieces();
    const model = redactingModel({ model: inner, categories: new Set(['email']) });
    const pieces: string[] = [];
    const response = await model.generate({
      prompt: 'answer@1',
      messages: [{ role: 'user', content: 'What is the address of maya@example.org?' }],
      onText: (d) => pieces.push(d),
    });
    expect(inner.seen.join('')).not.toContain('maya@example.org');
    expect(pieces.join('')).toBe('Write to maya@example.org today.');
    expect(pieces.some((p) => p.includes('⟦') || p.includes('⟧'))).toBe(false);
    expect(response.text).toBe('Write to maya@example.org today.');
  });
});
