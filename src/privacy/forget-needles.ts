import { textForms } from '../domain/text-match.js';
import type { Needles } from '../ports/forget-store.js';

/**
 * How copies of forgotten things are recognized in the model cache, the undo journal, the maintenance log, insights
 * and sleep tasks (pure): by the ids of removed rows, and by texts only the forgotten part held — the names of
 * entities that go, aliases only it used, the words only it contains, its turns, and a forgotten text itself.
 */

/** Texts shorter than this are too common to recognize a copy by ("AI", "Bob"). */
export const MIN_NEEDLE_CHARS = 4;
/** A word shorter than this is rarely specific to one conversation. */
export const MIN_WORD_CHARS = 5;
/** Words of the forgotten turns checked against the rest of the history (each check is one index lookup). */
export const MAX_WORDS = 600;

const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const HAS_WORD = /[\p{L}\p{N}]/u;
const SPECIFIC = /[\p{Lu}\p{N}]/u;

/**
 * Words of the forgotten text worth checking for copies: whitespace-separated, trimmed of punctuation at both ends,
 * at least MIN_WORD_CHARS long; names and codes (with a capital or a digit) first, then longer words; each once
 * (ignoring case), at most `limit`.
 */
export function candidateWords(texts: readonly string[], limit = MAX_WORDS): string[] {
  const seen = new Map<string, string>();
  for (const text of texts) {
    for (const raw of text.split(/\s+/u)) {
      const word = raw.replace(EDGE_PUNCTUATION, '');
      if (word.length < MIN_WORD_CHARS || !HAS_WORD.test(word)) continue;
      const key = word.toLowerCase();
      if (!seen.has(key)) seen.set(key, word);
    }
  }
  const rank = (w: string): number => (SPECIFIC.test(w) ? 0 : 1);
  return [...seen.values()].sort((a, b) => rank(a) - rank(b) || b.length - a.length).slice(0, limit);
}

/** The needles of a forget: ids as they are, and every text of at least MIN_NEEDLE_CHARS in each of its forms. */
export function buildNeedles(input: { ids: readonly string[]; texts: readonly (string | null)[] }): Needles {
  const texts = new Set<string>();
  for (const text of input.texts) {
    const trimmed = text?.trim() ?? '';
    if (trimmed.length < MIN_NEEDLE_CHARS) continue;
    for (const form of textForms(trimmed)) texts.add(form);
  }
  return { ids: [...new Set(input.ids)], texts: [...texts] };
}
