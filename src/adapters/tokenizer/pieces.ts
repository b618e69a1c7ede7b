/**
 * Where o200k_base's pre-tokenizer pattern ends a piece, without running the pattern. Pure.
 *
 * The pattern (js-tiktoken's `o200k_base.pat_str`, matched with the `gu` flags) is, alternative by alternative:
 *
 *   1. [^\r\n\p{L}\p{N}]? [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]* [\p{Ll}\p{Lm}\p{Lo}\p{M}]+ CONTRACTION?
 *   2. [^\r\n\p{L}\p{N}]? [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+ [\p{Ll}\p{Lm}\p{Lo}\p{M}]* CONTRACTION?
 *   3. \p{N}{1,3}
 *   4. ␠? [^\s\p{L}\p{N}]+ [\r\n/]*
 *   5. \s* [\r\n]+
 *   6. \s+ (?!\S)
 *   7. \s+
 *
 * CONTRACTION being 's 't 're 've 'm 'll 'd in any letter case. The regular expression engine spends about 50 ns a
 * character on it (its Unicode property classes are tested character by character, and every match allocates); a
 * context is counted about five times while it is compiled (80,000 characters a question), so the pattern is
 * followed here by hand, with each code point's classes looked up once: the same pieces, several times faster.
 * Each alternative is followed as the engine does, first match wins, with its greedy runs and their backtracking
 * (spelled out at each alternative below); pieces.test.ts holds this to the pattern itself on mixed-script text.
 */

const LETTER = 1; // \p{L}
const NUMBER = 2; // \p{N}
const UPPER = 4; // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
const LOWER = 8; // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
const SPACE = 16; // \s
const NEWLINE = 32; // [\r\n]

const UPPER_CLASS = /[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]/u;
const LOWER_CLASS = /[\p{Ll}\p{Lm}\p{Lo}\p{M}]/u;
const LETTER_CLASS = /\p{L}/u;
const NUMBER_CLASS = /\p{N}/u;
const SPACE_CLASS = /\s/u;

function classify(codePoint: number): number {
  const c = String.fromCodePoint(codePoint);
  return (
    (LETTER_CLASS.test(c) ? LETTER : 0) |
    (NUMBER_CLASS.test(c) ? NUMBER : 0) |
    (UPPER_CLASS.test(c) ? UPPER : 0) |
    (LOWER_CLASS.test(c) ? LOWER : 0) |
    (SPACE_CLASS.test(c) ? SPACE : 0) |
    (codePoint === 10 || codePoint === 13 ? NEWLINE : 0)
  );
}

const ASCII = Uint8Array.from({ length: 128 }, (_, c) => classify(c));
/** Classes of the non-ASCII code points met so far (a text uses few distinct ones). */
const OTHERS = new Map<number, number>();

/** The classes of the code point at `i` (a lone surrogate is a code point of its own, as with the `u` flag). */
function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII[c] as number;
  const cp = text.codePointAt(i) as number;
  let found = OTHERS.get(cp);
  if (found === undefined) {
    found = classify(cp);
    OTHERS.set(cp, found);
  }
  return found;
}

/** UTF-16 units of the code point at `i`. */
function widthAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c < 0xd800 || c > 0xdbff ? 1 : (text.codePointAt(i) as number) > 0xffff ? 2 : 1;
}

/** [^\r\n\p{L}\p{N}]: what may lead a word. */
const leads = (cls: number): boolean => (cls & (NEWLINE | LETTER | NUMBER)) === 0;
/** [^\s\p{L}\p{N}]: punctuation and symbols. */
const isSymbol = (cls: number): boolean => (cls & (SPACE | LETTER | NUMBER)) === 0;

/** The end of the longest run from `i` of code points that have `flag`. */
function runEnd(text: string, i: number, flag: number): number {
  let e = i;
  while (e < text.length && (classAt(text, e) & flag) !== 0) e += widthAt(text, e);
  return e;
}

/** After a word's letters at `e`: the end of the contraction there ('s 't 're 've 'm 'll 'd, any case), or `e`. */
function contraction(text: string, e: number): number {
  if (text.charCodeAt(e) !== 39) return e;
  // An ASCII letter in lower case (| 0x20 maps only its upper case to it; past the end, NaN | 0x20 is a space).
  const a = text.charCodeAt(e + 1) | 0x20;
  if (a === 0x73 || a === 0x74 || a === 0x6d || a === 0x64) return e + 2; // s t m d
  const b = text.charCodeAt(e + 2) | 0x20;
  if (((a === 0x72 || a === 0x76) && b === 0x65) || (a === 0x6c && b === 0x6c)) return e + 3; // re ve ll
  return e;
}

/**
 * Alternative 1 after its optional lead, from `j`: UPPER* then LOWER+. The UPPER run is greedy; when no LOWER code
 * point follows it, the engine gives the run back one code point at a time until LOWER+ can start, which is at the
 * last LOWER code point inside the run (the classes overlap: \p{Lm}, \p{Lo} and \p{M} are both), and LOWER+ then
 * ends right after that code point (the next one is not LOWER). -1 when it does not match.
 */
function wordLowerEnd(text: string, j: number): number {
  let k = j;
  let lastLower = -1;
  while (k < text.length) {
    const cls = classAt(text, k);
    if ((cls & UPPER) === 0) break;
    if ((cls & LOWER) !== 0) lastLower = k;
    k += widthAt(text, k);
  }
  if (k < text.length && (classAt(text, k) & LOWER) !== 0) return contraction(text, runEnd(text, k, LOWER));
  return lastLower < 0 ? -1 : contraction(text, lastLower + widthAt(text, lastLower));
}

/** Alternative 2 after its optional lead, from `j`: UPPER+ then LOWER* (nothing after them can fail). -1: none. */
function wordUpperEnd(text: string, j: number): number {
  const k = runEnd(text, j, UPPER);
  return k === j ? -1 : contraction(text, runEnd(text, k, LOWER));
}

/** The end of the piece that starts at `i` (< text.length): where the pattern's match at `i` ends. */
export function pieceEnd(text: string, i: number): number {
  const n = text.length;
  const cls = classAt(text, i);
  const width = widthAt(text, i);
  // 1, then 2: the optional lead is taken when it can be; when the rest then fails, it is tried without.
  const lead = leads(cls) && i + width < n;
  let word = lead ? wordLowerEnd(text, i + width) : -1;
  if (word < 0) word = wordLowerEnd(text, i);
  if (word < 0 && lead) word = wordUpperEnd(text, i + width);
  if (word < 0) word = wordUpperEnd(text, i);
  if (word >= 0) return word;
  // 3: up to three digits.
  if ((cls & NUMBER) !== 0) {
    let e = i;
    for (let d = 0; d < 3 && e < n && (classAt(text, e) & NUMBER) !== 0; d++) e += widthAt(text, e);
    return e;
  }
  // 4: an optional space, symbols, then any newlines and slashes.
  const symbols = text.charCodeAt(i) === 32 && i + 1 < n && isSymbol(classAt(text, i + 1)) ? i + 1 : i;
  if (isSymbol(classAt(text, symbols))) {
    let e = symbols;
    while (e < n && isSymbol(classAt(text, e))) e += widthAt(text, e);
    while (e < n && (text.charCodeAt(e) === 10 || text.charCodeAt(e) === 13 || text.charCodeAt(e) === 47)) e++;
    return e;
  }
  // 5 to 7: whitespace (every \s code point is one UTF-16 unit). 5: up to and including its last newline; 6: all of
  // it at the end of the text, else all but its last character (which then leads the next piece); 7: all of it.
  let e = i;
  let lastNewline = -1;
  while (e < n && (classAt(text, e) & SPACE) !== 0) {
    if ((classAt(text, e) & NEWLINE) !== 0) lastNewline = e;
    e++;
  }
  if (lastNewline >= 0) return lastNewline + 1;
  if (e === n) return e;
  return e - i >= 2 ? e - 1 : e;
}
