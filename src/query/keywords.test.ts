import { describe, expect, it } from 'vitest';
import {
  keyCoverage,
  keysPresent,
  keyWeights,
  keywordText,
  matchKey,
  matchKeys,
  questionKeywords,
  textKeys,
} from './keywords.js';

describe('questionKeywords', () => {
  it('drops question words, auxiliaries and pronouns, keeps the topic', () => {
    expect(questionKeywords('How has my thinking about knowledge graphs evolved?')).toEqual([
      'thinking',
      'knowledge',
      'graphs',
    ]);
  });
  it('strips possessives, keeps numbers and dedupes case-insensitively', () => {
    expect(questionKeywords("What was Maya's plan in 2024? maya PLAN")).toEqual(['Maya', 'plan', '2024']);
  });
  it('leaves out words that only signal intent or time, and the time references the planner parsed', () => {
    expect(questionKeywords('What is the current state of Kestrel Notes?')).toEqual(['Kestrel', 'Notes']);
    expect(questionKeywords('What did I cook last spring with Maya?', ['last spring'])).toEqual(['cook', 'Maya']);
    expect(keywordText('What happened 3 weeks ago?', ['3 weeks ago'])).toBeNull();
    // "last time" is no topic: as a search word "last" found a book called "The Last Letter" (LongMemEval S dev30).
    expect(questionKeywords('Remind me of that vegan eatery you recommended last time?')).toEqual([
      'Remind',
      'vegan',
      'eatery',
      'recommended',
      'time',
    ]);
  });

  it('drops what contractions leave once the apostrophe splits them', () => {
    expect(questionKeywords("I've got free time tonight, don't you have documentary ideas?")).toEqual([
      'free',
      'time',
      'tonight',
      'documentary',
      'ideas',
    ]);
  });

  it('returns null text when nothing is left', () => {
    expect(keywordText('What is it?')).toBeNull();
    expect(keywordText('  ')).toBeNull();
  });
});

describe('keyWeights and weighted keyCoverage', () => {
  const turns = [
    'I like my turtles, they are calm animals.',
    'I like pizza, Joanna!',
    'Do you like the movie, Nate?',
    'I would like a nap.',
    'My dog likes long walks.',
  ];
  const keys = ['animal', 'like', 'Nate'].map(matchKey);

  it('weighs a word said in most turns below the one the question is about', () => {
    const w = keyWeights(keys, turns);
    expect(w.get('anima')).toBeGreaterThan(w.get('like') ?? Infinity);
    expect(w.get('nate')).toBeGreaterThan(w.get('like') ?? Infinity);
    // Even a word in every turn keeps a tenth of the largest weight.
    expect(keyWeights(['like'], ['like', 'like']).get('like')).toBeGreaterThan(0);
  });

  it('ranks the turn with the rare word above the turn with the common ones', () => {
    const w = keyWeights(keys, turns);
    const animal = keyCoverage('They are calm animals.', keys, w);
    const common = keyCoverage('Do you like the movie, Nate?', keys);
    expect(keyCoverage('They are calm animals.', keys)).toBeLessThan(common);
    expect(animal).toBeGreaterThan(keyCoverage('I would like that.', keys, w));
    expect(keyCoverage('turtles are calm animals I like', keys, w)).toBeGreaterThan(animal);
  });

  it('counts a key only where it starts a word, however the text writes it (texts without any key skipped)', () => {
    // Every text's keys read one by one: what keyWeights computes from the texts it does not skip.
    const reference = (ks: string[], texts: string[]) => {
      const n = texts.length;
      const idf = ks.map((k) => Math.log((n + 1) / (texts.filter((t) => textKeys(t).has(k)).length + 0.5)));
      const top = Math.max(1e-9, ...idf);
      return new Map(ks.map((k, i) => [k, Math.max(idf[i] ?? 0, top / 10)]));
    };
    const texts = [
      ...turns,
      'CAFÉ Naïve résumé',
      'the cafeteria',
      'a postcard',
      'postcards, Postcard!',
      'nothing here',
      'snake',
      'c++ and c#',
      '',
    ];
    for (const ks of [keys, matchKeys(['café', 'naive', 'Postcards', 'nake', 'C++']), ['zz'], []]) {
      expect(keyWeights(ks, texts)).toEqual(reference(ks, texts));
    }
  });

  it('without weights is the plain share of keys', () => {
    expect(keyCoverage('I like it', keys)).toBeCloseTo(1 / 3);
    expect(keyCoverage('anything', [])).toBe(0);
  });
});

describe('keysPresent', () => {
  // What it stands for: the keys among the text's word keys.
  const reference = (text: string, keys: string[]) => new Set(keys.filter((k) => textKeys(text).has(k)));

  it.each([
    ['a whole short word only', 'I like pizza; the likeness…', ['like', 'pizza', 'likes', 'pizz', 'izza']],
    ['a five-letter stem of a longer word', 'Postcards, postcard! a xpostcard', ['postc', 'ostca', 'postcards']],
    ['at the ends of the text', 'nate', ['nate', 'nat', 'ate']],
    ['digits and letters', 'x1 and 2024, or 20245', ['x1', '2024', '20245', '202']],
    ['keys no word can have', 'c++ and c# and C', ['c++', 'c#', 'c', '', 'C', 'abcdef']],
    ['accents and other scripts', 'CAFÉ Naïve résumé Привет 東京', ['cafe', 'naive', 'resum', 'приве', '東京']],
    ['an empty text', '', ['', 'a']],
    ['separators at both ends', ' …hello… ', ['', 'hello']],
  ])('%s', (_, text, keys) => {
    expect(keysPresent(text, keys)).toEqual(reference(text, keys));
  });

  it('on random texts and keys', () => {
    const alphabet = [..."abcdeABCDE0129 ,.!-'\n", 'é', 'É', '\u0301', 'ß', 'ﬁ', '中'];
    let seed = 11;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const word = (max: number): string => {
      let w = '';
      for (let k = next(max); k >= 0; k--) w += alphabet[next(alphabet.length)] ?? '';
      return w;
    };
    for (let r = 0; r < 5000; r++) {
      const text = word(30);
      const keys = [...Array.from({ length: 4 }, () => word(6)), ...matchKeys(text.split(/\s+/))];
      expect(keysPresent(text, keys), JSON.stringify({ text, keys })).toEqual(reference(text, keys));
    }
  });
});

describe('matchKeys', () => {
  it('keeps distinct keys of two letters or more, in order', () => {
    expect(matchKeys(['Collecting', 'collection', 'a', 'Postcards', 'x1'])).toEqual(['colle', 'postc', 'x1']);
  });
});
