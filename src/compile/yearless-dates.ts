import { matchesOf } from '../domain/matches.js';
import { dayOf, dayStart, localDate, monthSpan, yearSpan } from '../query/time/calendar.js';
import { MONTH_NAMES } from '../domain/time.js';
import { clauseTense, occurrenceFor } from '../query/time/tense.js';
import { MONTH_PATTERN, monthNumber } from '../query/time/words.js';
import { longDate } from './time-format.js';

/**
 * A day or a month said without a year ("I got my boots on January 15th", "around the 5th of March", "I went to
 * Tokyo in March"), found in what someone said, with the year it most likely means: the latest such day or month up
 * to when it was said; when the clause speaks of what is to come ("I'm thinking of visiting around October 15th",
 * "I'm flying to Tokyo in June") or says what a thing is ("the deadline is March 1st"), the first from then on; when
 * it says neither ("any charity events in June?"), the nearest (tense.ts occurrenceFor). Not a date: a birthday or a
 * day of every year ("born on October 5th", "every January 1st"), which has no one year. A run of days ("from the
 * 20th to the 27th of April", "March 18-21") is one span, named "20–27 April 2023"; two days with "and" ("April 5th
 * and 19th") are named both. Pure.
 */
export interface YearlessDate {
  /** Where the words are in the text, a preposition before them included ("on January 15th", "in March"). */
  from: number;
  to: number;
  /** The day or the month meant, in the zone. */
  start: number;
  end: number;
  unit: 'day' | 'month';
  /** Two days of one month said with "and" ("April 5th and 19th"): both, the span being from the first to the last. */
  pair?: true;
}

const ORDINAL = String.raw`(\d{1,2})(?:st|nd|rd|th)?`;
/**
 * "January 15th", "Jan. 15", "the 15th of January", "15 January": no year after ("January 15th, 2023" is whole), nor
 * one just after in the same sentence ("between April 1 - April 21, 2023": the range's year is the day's).
 */
const YEARLESS = new RegExp(
  String.raw`\b(?:(?:on|around|about|by)\s+)?(?:(${MONTH_PATTERN})\.?\s+${ORDINAL}|(?:the\s+)?${ORDINAL}\s+(?:of\s+)?(${MONTH_PATTERN})\b)(?![\w:])(?!,?\s*(?:'|’)?\d{2,4}\b)(?![^.;!?]{0,24}\b(?:19|20)\d{2}\b)`,
  'gi',
);

/** Between the two days of a range: "20th to 27th", "17th and 18th", "5-8". */
const RANGE_JOIN = String.raw`\s*(?:-|–|—|to|through|till|until|and)\s*(?:the\s+)?`;
/**
 * A run of days in one month without a year: "from the 20th to the 27th of April", "the 17th and 18th of April",
 * "April 20th to 27th", "April 5-8". Read before single days, which it hides.
 */
const YEARLESS_RANGE = new RegExp(
  String.raw`\b(?:(?:from|between)\s+)?(?:(?:the\s+)?${ORDINAL}${RANGE_JOIN}${ORDINAL}\s+(?:of\s+)?(${MONTH_PATTERN})\b|(${MONTH_PATTERN})\.?\s+${ORDINAL}${RANGE_JOIN}${ORDINAL}(?!\s*(?:of\s+)?(?:${MONTH_PATTERN})\b))(?![\w:])(?!,?\s*(?:'|’)?\d{2,4}\b)(?![^.;!?]{0,24}\b(?:19|20)\d{2}\b)`,
  'gi',
);

/** Words before a day that make it one of every year, or one without a year of its own. */
const NO_ONE_YEAR = /\b(?:born|birthday|anniversary|every|each|annual|annually|yearly)\b[^.!?;]*$/i;

/** "in March", "back in May", "during June": a month with no day or year after it. */
const YEARLESS_MONTH = new RegExp(
  String.raw`\b(?:back\s+)?(?:in|during)\s+(${MONTH_PATTERN})\b(?!\.?\s*\d)(?!,?\s*(?:'|’)?\d{2,4}\b)(?![^.;!?]{0,24}\b(?:19|20)\d{2}\b)`,
  'gi',
);

/** "March 3, 2021", "on the 3rd of March 2021", "3 March 2021": a day written out with its year. */
const WRITTEN_DAY = new RegExp(
  String.raw`\b(?:(?:on|around|about|by)\s+)?(?:(${MONTH_PATTERN})\.?\s+${ORDINAL},?\s+((?:19|20)\d{2})|(?:the\s+)?${ORDINAL}\s+(?:of\s+)?(${MONTH_PATTERN}),?\s+((?:19|20)\d{2}))\b`,
  'gi',
);

/**
 * The days written out with their year in a text ("I graduated on May 15, 2019"), where they are and the day each
 * is. Pure.
 */
export function writtenDays(input: { text: string; tz: string }): { from: number; to: number; start: number }[] {
  const out: { from: number; to: number; start: number }[] = [];
  for (const m of matchesOf(WRITTEN_DAY, input.text)) {
    const word = m[1] ?? m[5] ?? '';
    const month = monthNumber(word);
    const day = Number(m[2] ?? m[4]);
    const year = Number(m[3] ?? m[6]);
    if (month === null || word === 'may' || !(day >= 1 && day <= 31)) continue;
    const start = dayStart(year, month, day, input.tz);
    if (localDate(start, input.tz).month !== month) continue;
    out.push({ from: m.index, to: m.index + m[0].length, start });
  }
  return out;
}

/** "in March 2023", "May of 2020": a month written out with its year, and no day. */
const WRITTEN_MONTH = new RegExp(
  String.raw`\b(?:(?:back\s+in|in|during|around)\s+)?(${MONTH_PATTERN})\.?,?\s+(?:of\s+)?((?:19|20)\d{2})\b`,
  'gi',
);

/**
 * The months written out with their year in a text ("I completed my degree in May 2020"), where they are and the
 * month each is. A day written with them is writtenDays' ("15 May 2019" holds "May 2019"): the caller keeps the day.
 * Pure.
 */
export function writtenMonths(input: {
  text: string;
  tz: string;
}): { from: number; to: number; start: number; end: number }[] {
  const out: { from: number; to: number; start: number; end: number }[] = [];
  for (const m of matchesOf(WRITTEN_MONTH, input.text)) {
    const word = m[1] ?? '';
    const month = monthNumber(word);
    if (month === null || word === 'may') continue;
    out.push({ from: m.index, to: m.index + m[0].length, ...monthSpan(Number(m[2]), month, input.tz) });
  }
  return out;
}

/**
 * "in 2019", "back in 2019", "during 2019", "since 2019": a year written alone after a preposition of time; not a
 * range ("in 2019-2020", "in 2019 to 2021"), nor a month's or a day's year (writtenMonths and writtenDays have those).
 */
const WRITTEN_YEAR =
  /\b(?:back\s+in|in|during|since)\s+((?:19|20)\d{2})\b(?![-–/]\d|\s*(?:to|through|until|and)\s+\d)/gi;

/**
 * The years written alone in a text ("I adopted my dog Luna in 2019"), where they are and the year each is. Pure.
 */
export function writtenYears(input: {
  text: string;
  tz: string;
}): { from: number; to: number; start: number; end: number }[] {
  return matchesOf(WRITTEN_YEAR, input.text).map((m) => ({
    from: m.index,
    to: m.index + m[0].length,
    ...yearSpan(Number(m[1]), input.tz),
  }));
}

/** A thing said to be on a day ("the deadline is March 1st", "my appointment's on the 5th of May"). */
const IS_ON = /\b(?:is|are|'s|'re)\s+(?:on\s+|due\s+(?:on\s+)?|set\s+for\s+|scheduled\s+for\s+)?(?:the\s+)?$/i;

/** "since March 25th" looks back whatever the verb ("I'm scheduled to … since March 25th"). */
const SINCE = /\bsince\s+(?:the\s+)?$/i;

/** The tense a day or month at [from, to) is said in: a thing said to be on it is to come, "since" looks back. */
function tenseAt(text: string, from: number, to: number): 'future' | 'past' | null {
  const before = text.slice(Math.max(0, from - 80), from);
  if (SINCE.test(before)) return 'past';
  return IS_ON.test(before) ? 'future' : clauseTense(text, from, to);
}

export function yearlessDates(input: { text: string; at: number; tz: string }): YearlessDate[] {
  const { text, at, tz } = input;
  const out: YearlessDate[] = [];
  const yearOf = (from: number, to: number, month: number, day: number): number | undefined => {
    const tense = tenseAt(text, from, to);
    const year = localDate(at, tz).year;
    const candidates = [year - 1, year, year + 1].map((y) => dayStart(y, month, day, tz));
    // A day that does not exist in that month ("February 30th") rolls over in dayStart: no date.
    if (localDate(candidates[1] ?? 0, tz).month !== month) return undefined;
    return occurrenceFor(candidates, dayOf(at, tz).start, tense);
  };
  // "May 15" is a date, "may 15 people" is not: a bare "may" needs its capital.
  const usable = (word: string, from: number): number | null =>
    word === 'may' || NO_ONE_YEAR.test(text.slice(Math.max(0, from - 80), from)) ? null : monthNumber(word);
  for (const m of matchesOf(YEARLESS_RANGE, text)) {
    const word = m[3] ?? m[4] ?? '';
    const month = usable(word, m.index);
    const [first, last] = m[3] === undefined ? [Number(m[5]), Number(m[6])] : [Number(m[1]), Number(m[2])];
    if (month === null || !(first >= 1 && first < last && last <= 31)) continue;
    const to = m.index + m[0].trimEnd().length;
    const start = yearOf(m.index, to, month, first);
    if (start === undefined) continue;
    const end = dayStart(localDate(start, tz).year, month, last, tz) + DAY;
    if (localDate(end - DAY, tz).month !== month) continue;
    // "May 1st and 2nd" is a run of days; "April 5th and 19th" two days.
    const pair = /\band\b/i.test(m[0]) && last > first + 1;
    out.push({ from: m.index, to, start, end, unit: 'day', ...(pair ? { pair: true as const } : {}) });
  }
  const inRange = (at: number): boolean => out.some((d) => d.from <= at && at < d.to);
  for (const m of matchesOf(YEARLESS, text)) {
    const month = usable(m[1] ?? m[4] ?? '', m.index);
    const day = Number(m[2] ?? m[3]);
    if (month === null || !(day >= 1 && day <= 31) || inRange(m.index) || inRange(m.index + m[0].length - 1)) continue;
    const to = m.index + m[0].trimEnd().length;
    const start = yearOf(m.index, to, month, day);
    if (start === undefined) continue;
    out.push({ from: m.index, to, start, end: start + DAY, unit: 'day' });
  }
  for (const m of matchesOf(YEARLESS_MONTH, text)) {
    const word = m[1] ?? '';
    const month = monthNumber(word);
    // A month's name only with its capital ("in may" is no month), and never a short one ("in Mar").
    if (month === null || !/^\p{Lu}/u.test(word) || !MONTH_NAMES.includes(word[0] + word.slice(1).toLowerCase())) {
      continue;
    }
    if (NO_ONE_YEAR.test(text.slice(Math.max(0, m.index - 80), m.index))) continue;
    const tense = tenseAt(text, m.index, m.index + m[0].length);
    const year = localDate(at, tz).year;
    const spans = [year - 1, year, year + 1].map((y) => monthSpan(y, month, tz));
    // The month it is said in is that month, whatever the tense ("in May" said on 20 May).
    const starts = spans.map((s) => s.start);
    const chosen = spans.find((s) => s.start <= at && at < s.end)?.start ?? occurrenceFor(starts, at, tense);
    const span = spans.find((s) => s.start === chosen);
    if (span === undefined) continue;
    out.push({ from: m.index, to: m.index + m[0].length, start: span.start, end: span.end, unit: 'month' });
  }
  return out.sort((a, b) => a.from - b.from);
}

const DAY = 86_400_000;

/** What the day or month is called: "15 January 2023", "March 2023". */
export function yearlessLabel(d: YearlessDate, tz: string): string {
  if (d.unit === 'day' && d.end - d.start > DAY)
    return `${localDate(d.start, tz).day}${d.pair ? ' and ' : '–'}${longDate(d.end - DAY, tz)}`;
  if (d.unit === 'day') return longDate(d.start, tz);
  const { year, month } = localDate(d.start, tz);
  return `${MONTH_NAMES[month - 1] ?? ''} ${year}`;
}
