import { readFileSync } from 'node:fs';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { createRng, pick } from '../../../bench/generate/prng.js';
import { countPiece, parseRanks, utf8Bytes } from './bpe.js';
import { createTiktokenTokenizer } from './tiktoken.js';

const encoder = new Tiktoken(o200kBase);
const exact = (text: string): number => encoder.encode(text, [], []).length;

describe('parseRanks', () => {
  it('ranks the tokens of a line one after another from its first rank, and reads every line', () => {
    // "a" "b" "ab" from 0; "abc" from 7.
    const ranks = parseRanks('! 0 YQ== Yg== YWI=\n! 7 YWJj\n');
    expect([...ranks]).toEqual([
      ['a', 0],
      ['b', 1],
      ['ab', 2],
      ['abc', 7],
    ]);
    expect(() => parseRanks('! x YQ==')).toThrow(/Malformed tiktoken rank line/);
  });

  it('holds every token of o200k_base once, as bytes', () => {
    const ranks = parseRanks(o200kBase.bpe_ranks);
    expect(ranks.size).toBe(199_998);
    expect(ranks.get(' world')).toBe(2375);
    expect(ranks.get(utf8Bytes('é'))).toBeDefined();
  });
});

describe('countPiece', () => {
  // A tiny encoding: merges "ab" first, then "bc", then "abc".
  const ranks = new Map([
    ['a', 0],
    ['b', 1],
    ['c', 2],
    ['ab', 3],
    ['bc', 4],
    ['abc', 5],
    ['aa', 6],
  ]);
  it('merges the lowest-ranked pair first, the leftmost of equal ones, until no pair is a token', () => {
    expect(countPiece('', ranks)).toBe(0);
    expect(countPiece('c', ranks)).toBe(1);
    expect(countPiece('abc', ranks)).toBe(1); // a token itself
    expect(countPiece('abab', ranks)).toBe(2); // ab · ab
    expect(countPiece('bcab', ranks)).toBe(2); // ab first, then bc
    expect(countPiece('cab', ranks)).toBe(2); // c · ab ("ca" is no token)
    expect(countPiece('aaa', ranks)).toBe(2); // aa · a, the leftmost pair
    expect(countPiece('abcc', ranks)).toBe(2); // ab, then abc (not bc, a lower rank taken first) · c
    expect(countPiece('bcc', ranks)).toBe(2); // bc · c
    // Of two equal pairs, the left one merges: aa · a · b, where the right one would lead to a · aab.
    const ties = new Map([
      ['a', 0],
      ['b', 1],
      ['aa', 6],
      ['aab', 8],
    ]);
    expect(countPiece('aaab', ties)).toBe(3);
  });
});

describe('utf8Bytes', () => {
  it('writes a text as its UTF-8 bytes, one character a byte, lone surrogates as U+FFFD', () => {
    expect(utf8Bytes('plain')).toBe('plain');
    expect(utf8Bytes('é')).toBe('\xc3\xa9');
    expect(utf8Bytes('東')).toBe('\xe6\x9d\xb1');
    expect(utf8Bytes('\ud83d')).toBe('\xef\xbf\xbd');
  });
});

describe('the tokenizer against js-tiktoken', () => {
  const tokenizer = createTiktokenTokenizer();

  it('counts every turn of the bundled sample export exactly as the encoder does', () => {
    const raw = readFileSync(new URL('../../../sample/chatgpt-export.json', import.meta.url), 'utf8');
    const texts = [...raw.matchAll(/"parts":\s*\[\s*"((?:[^"\\]|\\.)*)"/g)].map(
      (m) => JSON.parse(`"${m[1]}"`) as string,
    );
    expect(texts.length).toBeGreaterThan(50);
    for (const text of texts) expect(tokenizer.count(text), text.slice(0, 60)).toBe(exact(text));
  });

  it('counts random text of many scripts, digits, emoji, spacing and broken surrogates exactly', () => {
    const rng = createRng(7);
    const alphabet = [
      ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
      ...'0123456789',
      ...' \t\n\r  ',
      ...'.,;:!?\'"()[]{}<>-_=+*/\\|@#$%^&~`',
      ...'éèàüößçñøåæÉÅ',
      ...'пиветкадлояПРИВЕТ',
      ...'東京会議日本語の文章です',
      ...'مرحباשלום',
      ...'😀👍🏽🎉',
      '\ud83d',
      '\ude00',
      "'s",
      "'re",
      '\u0301',
    ];
    for (let i = 0; i < 2000; i++) {
      const length = 1 + Math.floor(rng() * 60);
      const text = Array.from({ length }, () => pick(rng, alphabet)).join('');
      expect(tokenizer.count(text), JSON.stringify(text)).toBe(exact(text));
    }
  });
});
