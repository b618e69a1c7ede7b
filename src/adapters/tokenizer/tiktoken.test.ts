import { describe, expect, it } from 'vitest';
import { createTiktokenTokenizer } from './tiktoken.js';

const tokenizer = createTiktokenTokenizer();

describe('tiktoken tokenizer', () => {
  it('counts ordinary prose exactly', () => {
    expect(tokenizer.count('')).toBe(0);
    expect(tokenizer.count('Hello world')).toBe(2);
    expect(tokenizer.count('I decided to use Supabase instead of Firebase.')).toBe(10);
  });

  it('counts long runs without spaces in pieces, close to the exact figure and quickly', () => {
    const run = 'aGVsbG8gd29ybGQ'.repeat(40); // 600 characters of base64-like text
    const piecewise = tokenizer.count(`before ${run} after`);
    const exact =
      tokenizer.count('before ') +
      tokenizer.count(' after') +
      [0, 200, 400].reduce((n, i) => n + tokenizer.count(run.slice(i, i + 200)), 0);
    expect(piecewise).toBe(exact);
    // A 200k-character run would take minutes if counted in one piece; piecewise it is counted at all.
    expect(tokenizer.count('x'.repeat(200_000))).toBeGreaterThan(0);
  });
});
