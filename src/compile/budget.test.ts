import { describe, expect, it } from 'vitest';
import { createTiktokenTokenizer } from '../adapters/tokenizer/tiktoken.js';
import { createTokenBudget, truncateToTokens } from './budget.js';

const tokenizer = createTiktokenTokenizer();

describe('createTokenBudget', () => {
  it('takes lines while they fit and refuses the first that does not', () => {
    const budget = createTokenBudget({ limit: 12, tokenizer });
    expect(budget.take('one two three')).toBe(true);
    expect(budget.take('four five six')).toBe(true);
    expect(budget.take('seven eight nine ten eleven twelve')).toBe(false);
    expect(budget.text()).toBe('one two three\nfour five six');
    expect(tokenizer.count(budget.text())).toBeLessThanOrEqual(12);
    expect(budget.used() + budget.left()).toBe(12);
  });

  it.each([50, 200, 1000])('never exceeds %i tokens, whatever lines it is offered', (limit) => {
    const budget = createTokenBudget({ limit, tokenizer });
    for (let i = 0; i < 400; i++) budget.take(`line ${i}: ${'word '.repeat(i % 17)}— “quoted” ${i * 7}`);
    expect(tokenizer.count(budget.text())).toBeLessThanOrEqual(limit);
    expect(budget.used()).toBeGreaterThan(limit * 0.9);
  });
});

describe('truncateToTokens', () => {
  const text = 'The quick brown fox jumps over the lazy dog. '.repeat(40);
  it.each([1, 5, 17, 100])('keeps the longest prefix within %i tokens', (limit) => {
    const cut = truncateToTokens({ text, limit, tokenizer });
    expect(tokenizer.count(cut)).toBeLessThanOrEqual(limit);
    expect(text.startsWith(cut)).toBe(true);
    expect(tokenizer.count(cut)).toBeGreaterThan(limit * 0.7);
  });
  it('returns short text unchanged and nothing for no room', () => {
    expect(truncateToTokens({ text: 'short', limit: 10, tokenizer })).toBe('short');
    expect(truncateToTokens({ text, limit: 0, tokenizer })).toBe('');
  });
});
