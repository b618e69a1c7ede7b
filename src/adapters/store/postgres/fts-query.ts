import { buildFtsMatch } from '../sqlite/fts-query.js';
import type { Params } from './sql.js';

/** The tiers of one search as tsquery SQL over bound words (the user's text never becomes query syntax). */
export interface TsTiers {
  all: string;
  pairs: string | null;
  any: string | null;
  params: Params;
  /** Each word's own tsquery expression and its text (bound as `@w<i>`), in the question's order. */
  terms: string[];
  words: string[];
}

/** Pairs grow quadratically; past this many words the pairs tier is skipped (as in the SQLite adapter). */
const MAX_PAIR_WORDS = 8;

/**
 * The same word rules as the SQLite adapter's FTS5 query builder (buildFtsMatch: each word reduced to its letter
 * and digit runs, stand-alone AND/OR/NOT dropped, at most 32 words), each word then bound as a parameter of
 * `phraseto_tsquery`, which reads its argument as plain text. Null when the text has no searchable word; empty
 * text is an INVALID_ARGUMENT (thrown by buildFtsMatch).
 */
export function buildTsTiers(text: string, config = 'english'): TsTiers | null {
  const match = buildFtsMatch(text);
  if (!match) return null;
  const params: Params = {};
  const terms = match.phrases.map((phrase, i) => {
    params[`w${i}`] = phrase.slice(1, -1).replaceAll('""', '"');
    return `phraseto_tsquery('${config}', @w${i})`;
  });
  const pairs = terms.length >= 3 && terms.length <= MAX_PAIR_WORDS ? pairsOf(terms) : null;
  return {
    all: terms.join(' && '),
    pairs,
    any: terms.length > 1 ? anyOf(terms) : null,
    params,
    terms,
    words: match.phrases.map((_p, i) => String(params[`w${i}`])),
  };
}

/** Rows with any of these terms. */
export function anyOf(terms: readonly string[]): string {
  return terms.map((t) => `(${t})`).join(' || ');
}

/** Rows with at least two of these terms; null for fewer than two. */
export function pairsOf(terms: readonly string[]): string | null {
  const pairs: string[] = [];
  for (let i = 0; i < terms.length; i++)
    for (let j = i + 1; j < terms.length; j++) pairs.push(`(${terms[i]} && ${terms[j]})`);
  return pairs.length > 0 ? pairs.join(' || ') : null;
}
