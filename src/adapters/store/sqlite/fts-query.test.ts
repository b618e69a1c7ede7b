import { describe, expect, it } from 'vitest';
import { buildFtsMatch } from './fts-query.js';

describe('buildFtsMatch', () => {
  it.each([
    ['graph', { all: '"graph"', pairs: null, any: null }],
    ['graph memory', { all: '"graph" "memory"', pairs: null, any: '"graph" OR "memory"' }],
    ['"foo" AND (bar', { all: '"foo" "bar"', pairs: null, any: '"foo" OR "bar"' }],
    [
      'rock OR roll NOT and',
      {
        all: '"rock" "roll" "and"',
        pairs: '("rock" AND "roll") OR ("rock" AND "and") OR ("roll" AND "and")',
        any: '"rock" OR "roll" OR "and"',
      },
    ],
    ['AND', { all: '"AND"', pairs: null, any: null }],
    ['OR NOT', { all: '"OR" "NOT"', pairs: null, any: '"OR" OR "NOT"' }],
    ['c++ -x *', { all: '"c" "x"', pairs: null, any: '"c" OR "x"' }],
    ['e-mail', { all: '"e mail"', pairs: null, any: null }],
    ['title:graph', { all: '"title graph"', pairs: null, any: null }],
    ['NEAR(a b)', { all: '"NEAR a" "b"', pairs: null, any: '"NEAR a" OR "b"' }],
    ['café  Café', { all: '"café" "Café"', pairs: null, any: '"café" OR "Café"' }],
    ['graph graph', { all: '"graph"', pairs: null, any: null }],
    ['日本語 テキスト', { all: '"日本語" "テキスト"', pairs: null, any: '"日本語" OR "テキスト"' }],
  ])('%j → %j', (text, expected) => {
    expect(buildFtsMatch(text)).toEqual({ ...expected, phrases: expect.any(Array) });
  });

  it('returns null when nothing is searchable', () => {
    expect(buildFtsMatch('*** -- ()')).toBeNull();
  });

  it('rejects empty and whitespace-only text', () => {
    for (const text of ['', '  ', '\n\t']) expect(() => buildFtsMatch(text)).toThrow(/empty/);
  });

  it('builds pairs only for three to eight words', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect(buildFtsMatch(words(8))?.pairs?.split(' OR ')).toHaveLength(28);
    expect(buildFtsMatch(words(9))?.pairs).toBeNull();
  });

  it('caps the number of words', () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    expect(buildFtsMatch(words)?.all.split(' ')).toHaveLength(32);
  });
});
