/**
 * Every match of a global pattern in a text, as `[...text.matchAll(pattern)]` finds them, without the copy of the
 * pattern that matchAll makes on each call (a new RegExp object, initialized and looked up in V8's compilation
 * cache). The time rules run some thirty patterns over every evidence turn that may say a time, so those copies
 * were a few hundred per question.
 *
 * The pattern's lastIndex is used while matching and left at 0, so a module-level pattern may be shared as long as
 * nothing reads its lastIndex; the matches are all found before any is returned, so a caller may use the same
 * pattern while going through them. Pure (apart from that lastIndex).
 */
export function matchesOf(pattern: RegExp, text: string): RegExpExecArray[] {
  // matchAll refuses a pattern without the g flag; so does this, so neither can be swapped for the other silently.
  if (!pattern.global) throw new TypeError(`matchesOf needs a global pattern, got ${String(pattern)}`);
  const out: RegExpExecArray[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    out.push(m);
    // An empty match moves on by one character (a code point with the u flag), as matchAll does.
    if (m[0] === '') pattern.lastIndex = advance(text, pattern.lastIndex, pattern.unicode);
  }
  pattern.lastIndex = 0;
  return out;
}

/** The index after the character at `at` (after a whole surrogate pair when `unicode`). */
function advance(text: string, at: number, unicode: boolean): number {
  if (!unicode || at + 1 >= text.length) return at + 1;
  const first = text.charCodeAt(at);
  const second = text.charCodeAt(at + 1);
  return first >= 0xd800 && first <= 0xdbff && second >= 0xdc00 && second <= 0xdfff ? at + 2 : at + 1;
}
