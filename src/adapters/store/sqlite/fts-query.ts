import { PieError } from '../../../domain/errors.js';

/** Characters the unicode61 tokenizer keeps inside tokens (its default categories L*, N*, Co, plus marks). */
const TERM = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const MAX_PHRASES = 32;
/** Written in capitals on their own, these are meant as operators; as words they carry nothing worth matching. */
const OPERATOR_WORDS = new Set(['AND', 'OR', 'NOT']);

export interface FtsMatch {
  /** Every word must match (implicit AND of phrases). */
  all: string;
  /** At least two words must match (OR of ANDed pairs); null with fewer than three words or more than eight. */
  pairs: string | null;
  /** Any word may match (OR of phrases); null when there is only one word. */
  any: string | null;
  /** The quoted phrases, one per word. */
  phrases: string[];
}

/**
 * The whole text as one FTS5 phrase ("Maya Chen" → `"Maya Chen"`, "zq-forget-7731" → `"zq forget 7731"`): its
 * letter/digit runs in order, so it matches where the words stand together. Null when it has no searchable word.
 */
export function exactPhrase(text: string): string | null {
  const terms = text.match(TERM);
  return terms ? `"${terms.join(' ').replaceAll('"', '""')}"` : null;
}

/** Pairs grow quadratically; past this many words the pairs tier is skipped. */
const MAX_PAIR_WORDS = 8;

/** OR of every pair of the phrases (each pair ANDed); null with fewer than three phrases or more than eight. */
export function pairsOf(phrases: readonly string[]): string | null {
  if (phrases.length < 3 || phrases.length > MAX_PAIR_WORDS) return null;
  const out: string[] = [];
  for (let i = 0; i < phrases.length; i++)
    for (let j = i + 1; j < phrases.length; j++) out.push(`(${phrases[i]} AND ${phrases[j]})`);
  return out.join(' OR ');
}

/**
 * Turns user text into a safe FTS5 MATCH expression. The text never reaches FTS5 syntax: each whitespace-separated
 * word is reduced to its letter/digit runs, which become one double-quoted phrase ("e-mail" → "e mail", "c++" → "c",
 * `"foo"` → "foo"), so operators (AND, OR, NOT, NEAR), quotes, parentheses, `-`, `*`, `^`, `:` and column filters
 * are all inert. Stand-alone capital AND, OR and NOT are dropped (unless nothing else is left), because whoever
 * typed them meant an operator, and as words they would only match noise. Returns null when the text has no
 * searchable word (for example "*** --"). Empty or whitespace-only text is an INVALID_ARGUMENT.
 */
export function buildFtsMatch(text: string): FtsMatch | null {
  if (text.trim() === '') {
    throw new PieError('INVALID_ARGUMENT', 'The search text is empty; give at least one word to look for.');
  }
  const words = text.split(/\s+/u).filter((w) => w !== '');
  const meaningful = words.filter((w) => !OPERATOR_WORDS.has(w));
  const phrases: string[] = [];
  for (const word of meaningful.length > 0 ? meaningful : words) {
    const terms = word.match(TERM);
    if (!terms) continue;
    const phrase = `"${terms.join(' ').replaceAll('"', '""')}"`;
    if (!phrases.includes(phrase)) phrases.push(phrase);
    if (phrases.length === MAX_PHRASES) break;
  }
  if (phrases.length === 0) return null;
  return {
    all: phrases.join(' '),
    pairs: pairsOf(phrases),
    any: phrases.length > 1 ? phrases.join(' OR ') : null,
    phrases,
  };
}
