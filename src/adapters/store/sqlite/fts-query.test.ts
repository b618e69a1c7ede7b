import { describe, expect, it } from 'vitest';
import { buildFtsMatch } from './fts-query.js';

describe('buildFtsMatch', () => {
  it.each([
    ['graph', { all: '"graph"', any: null }],
    ['graph memory', { all: '"graph" "memory"', any: '"graph" OR "memory"' }],
    ['"foo" AND (bar', { all: '"foo" "bar"', any: '"foo" OR "bar"' }],
    ['rock OR roll NOT and', { all: '"rock" "roll" "and"', any: '"rock" OR "roll" OR "and"' }],
    ['AND', { all: '"AND"', any: null }],
    ['OR NOT', { all: '"OR" "NOT"', any: '"OR" OR "NOT"' }],
    ['c++ -x *', { all: '"c" "x"', any: '"c" OR "x"' }],
    ['e-mail', { all: '"e mail"', any: null }],
    ['title:graph', { all: '"title graph"', any: null }],
    ['NEAR(a b)', { all: '"NEAR a" "b"', any: '"NEAR a" OR "b"' }],
    ['café  Café', { all: '"café" "Café"', any: '"café" OR "Café"' }],
    ['graph graph', { all: '"graph"', any: null }],
    ['日本語 テキスト', { all: '"日本語" "テキスト"', any: '"日本語" OR "テキスト"' }],
  ])('%j → %j', (text, expected) => {
    expect(buildFtsMatch(text)).toEqual(expected);
  });

  it('returns null when nothing is searchable', () => {
    expect(buildFtsMatch('*** -- ()')).toBeNull();
  });

  it('rejects empty and whitespace-only text', () => {
    for (const text of ['', '  ', '\n\t']) expect(() => buildFtsMatch(text)).toThrow(/empty/);
  });

  it('caps the number of words', () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    expect(buildFtsMatch(words)?.all.split(' ')).toHaveLength(32);
  });
});
