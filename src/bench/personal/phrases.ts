import { longDate } from '../../compile/time-format.js';
import { resolvedLabel } from '../../compile/turn-times.js';
import { MONTH_NAMES } from '../../domain/time.js';
import { localDate, monthSpan } from '../../query/time/calendar.js';
import { findTimeRanges } from '../../query/time/index.js';

/**
 * Phrase helpers of the question templates (docs/evaluation.md "Personal benchmark"): where a named thing ends in a
 * sentence, the key two statements are compared by, and the date a statement gives for what it tells.
 */

/** Words that end a named thing ("Supabase last weekend", "LangChain in Tidepool", "calls and about 150 lines"). */
const ENDS_PHRASE =
  /\s+(?:because|since|so|but|and|or|which|that|who|when|while|after|before|like|last|this|next|on|in|at|for|with|without|instead|over|as|to|by|from|until|through|about|now|today|yesterday|then|again|too|anymore|though|although|if|where|whom|whose)\b/i;
const LEADING_ARTICLE = /^(?:a|an|the|my|our|your|his|her|their|this|that|some)\s+/i;
const PRONOUN = /^(?:it|that|this|them|those|these|one|everything|something|nothing|him|her)$/i;

/** The named thing at the start of `text`: up to the first clause word or punctuation, at most `maxWords` words. */
export function leadingPhrase(text: string, maxWords = 6): string | null {
  const clause = text.split(/[,.;:!?()"“”]|\s[-–—]\s/)[0] ?? '';
  const cut = ENDS_PHRASE.exec(` ${clause}`);
  const phrase = (cut ? ` ${clause}`.slice(0, cut.index) : clause).trim();
  const words = phrase.split(/\s+/).filter((w) => w !== '');
  if (words.length === 0 || words.length > maxWords) return null;
  return words.join(' ');
}

/** A verb phrase ("take a gap semester in San Francisco"): up to the first clause boundary, at most `maxWords`. */
export function leadingClause(text: string, maxWords = 10): string | null {
  const clause = (text.split(/[,.;:!?()"“”]|\s[-–—]\s/)[0] ?? '')
    .split(/\s+(?:instead of|because|since|so that|so|but|and then|which|while|unless|rather than)\s+/i)[0]
    ?.trim();
  if (!clause) return null;
  const words = clause.split(/\s+/);
  return words.length > maxWords ? null : clause;
}

export function isPronoun(phrase: string): boolean {
  return PRONOUN.test(phrase.trim());
}

/** How two statements' things are compared: lower case, no leading article or possessive, no trailing "in …". */
export function phraseKey(phrase: string): string {
  const bare = phrase.toLowerCase().replace(LEADING_ARTICLE, '').trim();
  const cut = /\s+(?:in|at|for|with|from|through|until|during|on)\s+/.exec(bare);
  return (cut ? bare.slice(0, cut.index) : bare).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * The sentences of a text, code blocks left out: split after ".", "!" or "?" (and a closing quote or bracket) before
 * white space, and at line breaks. Cheaper than a parser on long turns; an abbreviation ("Prof. Okafor") may split a
 * sentence, which only costs the frames a chance to match.
 */
export function sentences(text: string): string[] {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .split(/(?<=[.!?]["”’')\]]*)\s+|\n+/)
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

/** What the templates ask compromise (loaded on first use: its lexicon is built on import). */
export interface Language {
  /** A place (city, country, region), a proper name, a phrase that starts with a verb. */
  tags(phrase: string): { place: boolean; proper: boolean; startsWithVerb: boolean; temporal: boolean };
  /** Whether a clause holds a verb (a belief states something: "vector search is enough"). */
  hasVerb(text: string): boolean;
  /** Names compromise's lexicon files under a tag ("City", "Organization"), lower case. */
  lexiconNames(tag: string): string[];
}

interface Doc {
  has(pattern: string): boolean;
}
interface Nlp {
  (text: string): Doc;
  world(): { model: { one: { lexicon: Record<string, string | string[]> } } };
}

let loading: Promise<Language> | null = null;

export function loadLanguage(): Promise<Language> {
  loading ??= import('compromise').then(({ default: compromise }) => languageOf(compromise as unknown as Nlp));
  return loading;
}

function languageOf(nlp: Nlp): Language {
  return {
    tags(phrase) {
      const doc = nlp(phrase);
      return {
        place: doc.has('#Place'),
        proper: doc.has('#ProperNoun') || /^[A-Z]/.test(phrase),
        startsWithVerb: nlp(phrase.split(/\s+/)[0] ?? '').has('#Verb'),
        temporal: nlp(phrase.split(/\s+/)[0] ?? '').has('(#Date|#Value|#Duration)') || /\bago\b/i.test(phrase),
      };
    },
    hasVerb: (text) => nlp(text).has('#Verb'),
    lexiconNames(tag) {
      const lexicon = nlp.world().model.one.lexicon;
      return Object.entries(lexicon)
        .filter(([, tags]) => (Array.isArray(tags) ? tags.includes(tag) : tags === tag))
        .map(([word]) => word)
        .sort();
    },
  };
}

/** When a statement says it happened: the time and the words for it (in the user's zone). */
export interface StatedTime {
  time: number;
  /** "18 May 2025", "May 2025", "the weekend before 20 December 2024". */
  label: string;
  /** The words of the turn that gave it ("on Sunday, May 18"), or null when it is the turn's own date. */
  stated: string | null;
}

const DAY = 86_400_000;

/**
 * The date a sentence gives for its event: the first calendar date, month or relative time in it ("on Sunday, May
 * 18", "in May", "last weekend", read with chrono-node and PIE's time-reference rules against the turn's time) that
 * is not in the future of the turn and not more than two years before it; otherwise the turn's own date.
 */
export function statedTime(input: { sentence: string; at: number; tz: string }): StatedTime {
  const { at, tz } = input;
  const own = { time: at, label: longDate(at, tz), stated: null };
  const ranges = findTimeRanges({ text: input.sentence, now: at, tz, periods: [] }).filter(
    (r) =>
      (r.kind === 'explicit' || r.kind === 'relative' || r.kind === 'month') &&
      r.start <= at + DAY &&
      r.start >= at - 730 * DAY,
  );
  const range = ranges[0];
  if (!range) return own;
  const start = localDate(range.start, tz);
  const month = monthSpan(start.year, start.month, tz);
  const label =
    range.end - range.start <= DAY + 3_600_000
      ? longDate(range.start, tz)
      : range.start === month.start && range.end === month.end
        ? `${MONTH_NAMES[start.month - 1] ?? ''} ${start.year}`
        : resolvedLabel(range, at, tz);
  if (label === null) return own;
  return { time: range.start, label, stated: range.text };
}

/** "May 2025": the month a time falls in. */
export function monthLabel(time: number, tz: string): string {
  const d = localDate(time, tz);
  return `${MONTH_NAMES[d.month - 1] ?? ''} ${d.year}`;
}
