import { describe, expect, it } from 'vitest';
import { createTiktokenTokenizer } from './tiktoken.js';

const tokenizer = createTiktokenTokenizer();

describe('tiktoken tokenizer', () => {
  it('counts ordinary prose exactly', () => {
    expect(tokenizer.count('')).toBe(0);
    expect(tokenizer.count('Hello world')).toBe(2);
    expect(tokenizer.count('I decided to use Supabase instead of Firebase.')).toBe(10);
  });

  it('counts a piece longer than 200 characters in parts, close to the exact figure and quickly', () => {
    const run = 'abcdefghij'.repeat(60); // one 600-letter piece
    const parts = [0, 200, 400].reduce((n, i) => n + tokenizer.count(run.slice(i, i + 200)), 0);
    expect(tokenizer.count(run)).toBe(parts);
    // A 200k-character piece would take minutes if counted whole; in parts it is counted at all.
    expect(tokenizer.count('x'.repeat(200_000))).toBeGreaterThan(0);
  });
});

describe('tiktoken tokenizer, piece by piece', () => {
  it('counts exactly what the encoder does, for prose, numbers, code, markdown and other scripts', async () => {
    const { Tiktoken } = await import('js-tiktoken/lite');
    const { default: ranks } = await import('js-tiktoken/ranks/o200k_base');
    const encoder = new Tiktoken(ranks);
    const texts = [
      'Hello world',
      "I've added 25 new postcards since I started collecting again!",
      '    Melanie: I went yesterday [7 May 2023], it was so powerful.\n    Caroline: Wow!',
      'const x = await fetch(`https://api.example.com/v1?q=${encodeURIComponent(q)}`);',
      '| Postcard | Date |\n| --- | --- |\n| 1920s Paris | 1920s |',
      'Привет, как дела? 東京で会いましょう。 مرحبا',
      '$1,234,567.89 on 2024-03-15T14:00:00Z',
      '\n\n\n   \t  spaces   and\ttabs  \n',
    ];
    for (const text of texts) expect(tokenizer.count(text), text).toBe(encoder.encode(text, [], []).length);
    // Remembered pieces give the same figures the second time.
    for (const text of texts) expect(tokenizer.count(text)).toBe(encoder.encode(text, [], []).length);
  });
});
