/** English vocabulary shared by the matchers: month names, counts, and the prepositions that make a word temporal. */
import type { Unit } from './calendar.js';

/** Month name or abbreviation (lowercase) → month number. "sept" is common enough to list. */
const MONTHS: Record<string, number> = {
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sept: 9,
  sep: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
};

/** Longest first so the alternation prefers "september" over "sep". */
export const MONTH_PATTERN = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');

export function monthNumber(word: string): number | null {
  return MONTHS[word.toLowerCase().replace(/\.$/, '')] ?? null;
}

const COUNTS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  'a few': 3,
  few: 3,
  several: 3,
  'a couple of': 2,
  'a couple': 2,
  'couple of': 2,
};

/** A count written as digits or words ("3", "three", "a couple of"). */
export const COUNT_PATTERN = `\\d{1,3}|${Object.keys(COUNTS)
  .sort((a, b) => b.length - a.length)
  .join('|')}`;

export function countValue(word: string): number | null {
  const w = word.toLowerCase().replace(/\s+/g, ' ').trim();
  if (/^\d+$/.test(w)) return Number(w);
  return COUNTS[w] ?? null;
}

/**
 * A count that says exactly how many ("two weeks ago"), or null for a vague one ("a few", "a couple of", "several":
 * vague.ts reads those) or none.
 */
export function exactCount(word: string): number | null {
  return /few|couple|several/i.test(word) ? null : countValue(word);
}

/** A weekday's short name, as written after last / this / next / on ("last Fri", "on Tues"). */
export const SHORT_WEEKDAY_PATTERN = 'mon|tues?|wed|thu(?:rs?)?|fri|sat|sun';

export const UNIT_PATTERN = 'days?|weeks?|months?|years?';

export function unitOf(word: string): Unit {
  const w = word.toLowerCase();
  if (w.startsWith('day')) return 'day';
  if (w.startsWith('week')) return 'week';
  if (w.startsWith('month')) return 'month';
  return 'year';
}

/**
 * Words that, right before an ambiguous token ("may", "march", "fall", "2000"), make it a time reference:
 * "in May" is a month, "I may" is not.
 */
const TEMPORAL_PREPOSITION =
  /(?:^|[^\p{L}])(?:in|on|since|during|before|after|until|till|by|of|from|to|through|throughout|between|and|around|last|this|next|early|mid|late|over|that)\s+(?:the\s+)?$/iu;

export function followsTemporalPreposition(text: string, index: number): boolean {
  return TEMPORAL_PREPOSITION.test(text.slice(Math.max(0, index - 40), index));
}

/** "if this may be enough", "that may help": a lower-case "may" after "this" or "that" is the modal, not the month. */
export function isModalMay(text: string, index: number, word: string): boolean {
  return word === 'may' && /\b(?:this|that)\s+$/i.test(text.slice(Math.max(0, index - 8), index));
}
