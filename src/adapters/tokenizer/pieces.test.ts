import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { pieceEnd } from './pieces.js';

/** The pieces as the encoding's own pattern finds them. */
const PATTERN = new RegExp(o200kBase.pat_str, 'gu');
const expected = (text: string): string[] => text.match(PATTERN) ?? [];

function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    const end = pieceEnd(text, i);
    expect(end, `no progress at ${i} in ${JSON.stringify(text)}`).toBeGreaterThan(i);
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

describe('pieceEnd follows the o200k_base pattern', () => {
  it.each([
    ['prose', "I've added 25 new postcards since I started collecting again!"],
    ['contractions in every case', "it's IT'S we're WE'RE they've I'M you'll YOU'LL he'd HE'D don't 'x 'l"],
    ['a context line', '    Melanie: I went yesterday [7 May 2023], it was so powerful.\n    Caroline: Wow!'],
    ['typographic punctuation', '  • “Notes on lazy indexing”, 31 December 2025 (12 days ago) [1] … → –'],
    ['numbers in threes', '1234567 $1,234,567.89 2024-03-15T14:00:00Z ١٢٣٤ ²³'],
    ['whitespace runs', '\n\n\n   \t  spaces   and\ttabs  \n'],
    ['whitespace at the end', 'end   '],
    ['crlf and slashes', 'a.\r\n//\r\nb /\n\n c'],
    ['leading symbols and spaces', '  hello ..hello (Hello) \thello \u00a0word'],
    ['upper and lower runs', 'HTTPServer iPhone ABCdef XMLHttpRequest ǅungla ʰa'],
    ['other scripts', 'Привет, как дела? 東京で会いましょう。 مرحبا नमस्ते'],
    ['combining marks', 'e\u0301te\u0301 \u0301a A\u0301B \u0300\u0300x'],
    ['astral code points', 'I ❤️ 😀😀 𝐀𝐁c 𝑎𝑏 done'],
    ['lone surrogates', 'a\ud800b \udc00c\ud800'],
    ['line and paragraph separators', 'one\u2028two\u2029three\u3000four\ufeff'],
  ])('%s', (_, text) => {
    expect(pieces(text)).toEqual(expected(text));
  });

  it('on random mixed-script text', () => {
    const alphabet = [
      ..."aZq '  \t\n\r/.,!?-0123456789sStTrReEvVlLmMdD",
      ...['é', 'É', '\u0301', '\u0300', 'ß', 'ǅ', 'ʰ', '中', 'ا', '١', 'Ⅻ', 'ⅰ', '²', 'ﬁ', 'İ', 'K', 'क', '\u093f'],
      ...['“', '”', '•', '…', '\u00a0', '\u2028', '\u3000', '\u200b', '\ufeff', '😀', '𝐀', '𝑎', '\ud800', '\udc00'],
    ];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let r = 0; r < 20_000; r++) {
      let text = '';
      for (let k = 1 + next(14); k > 0; k--) text += alphabet[next(alphabet.length)] ?? '';
      expect(pieces(text), JSON.stringify(text)).toEqual(expected(text));
    }
  });
});
