import { tokenize } from '../bm25.js';
import type { Language } from './phrases.js';
import type { DraftQuestion } from './templates.js';

/**
 * Abstention questions (docs/evaluation.md "Personal benchmark"): the template questions' own wording about
 * something the history never mentions — a city from compromise's lexicon for "When did I move to …?", an
 * organization for "When did I start using …?" and "What do I use now instead of …?". A name counts as mentioned
 * when every word of it occurs in some turn (user's or assistant's), so a chosen name is in no turn at all. The
 * expected answer is that nothing in the history says so; there is no evidence.
 */

/** One abstention question per this many answerable ones, at least MIN and at most MAX. */
export const ABSTENTION_SHARE = 0.15;
export const MIN_ABSTENTION = 2;
export const MAX_ABSTENTION = 10;

export function abstentionCount(answerable: number): number {
  if (answerable === 0) return 0;
  return Math.min(MAX_ABSTENTION, Math.max(MIN_ABSTENTION, Math.round(answerable * ABSTENTION_SHARE)));
}

const TEMPLATES: readonly { pool: 'City' | 'Organization'; question: (name: string) => string }[] = [
  { pool: 'City', question: (n) => `When did I move to ${n}?` },
  { pool: 'Organization', question: (n) => `When did I start using ${n}?` },
  { pool: 'Organization', question: (n) => `What do I use now instead of ${n}?` },
];

const titleCase = (name: string): string => name.replace(/\b\p{L}/gu, (c) => c.toUpperCase());

/**
 * `count` abstention questions whose names appear in no turn. Names are single words of four letters or more from
 * compromise's lexicon, visited in a fixed order with a stride taken from the history's size, so the choice is
 * stable for one history and differs between histories.
 */
export function abstentionQuestions(input: {
  count: number;
  /** Every turn's text (user's and assistant's). */
  texts: Iterable<string>;
  lang: Language;
  /** When the question is asked: the time of the latest turn. */
  time: number;
}): DraftQuestion[] {
  const words = new Set<string>();
  let n = 0;
  for (const text of input.texts) {
    n += 1;
    for (const w of tokenize(text)) words.add(w);
  }
  const pools = {
    City: input.lang.lexiconNames('City').filter((c) => /^\p{L}{4,}$/u.test(c)),
    Organization: input.lang.lexiconNames('Organization').filter((c) => /^\p{L}{4,}$/u.test(c)),
  };
  const used = new Set<string>();
  const out: DraftQuestion[] = [];
  for (let i = 0; out.length < input.count && i < input.count * 4; i++) {
    const template = TEMPLATES[i % TEMPLATES.length];
    if (!template) break;
    const pool = pools[template.pool];
    const stride = 7 + (n % 13);
    const start = (n * 31 + i * stride) % Math.max(1, pool.length);
    const name = [...pool.slice(start), ...pool.slice(0, start)].find(
      (c) => !used.has(c) && tokenize(c).every((w) => !words.has(w)),
    );
    if (!name) continue;
    used.add(name);
    out.push({
      kind: 'abstention',
      question: template.question(titleCase(name)),
      answer: `Nothing in the history says so: ${titleCase(name)} is never mentioned.`,
      evidence: [],
      time: input.time,
    });
  }
  return out;
}
