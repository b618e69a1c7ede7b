import { buildFtsMatch } from '../sqlite/fts-query.js';
import type { Params } from './sql.js';

/** The tiers of one search as tsquery SQL over bound words (the user's text never becomes query syntax). */
export interface TsTiers {
  all: string;
  pairs: string | null;
  any: string | null;
  params: Params;
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
  const pairs: string[] = [];
  if (terms.length >= 3 && terms.length <= MAX_PAIR_WORDS) {
    for (let i = 0; i < terms.length; i++)
      for (let j = i + 1; j < terms.length; j++) pairs.push(`(${terms[i]} && ${terms[j]})`);
  }
  return {
    all: terms.join(' && '),
    pairs: pairs.length > 0 ? pairs.join(' || ') : null,
    any: terms.length > 1 ? terms.map((t) => `(${t})`).join(' || ') : null,
    params,
  };
}
