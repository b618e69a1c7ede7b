/**
 * Holidays as days: "last Christmas", "on Thanksgiving", "over Easter", "this Halloween". Conventions:
 * - The US calendar for the moving ones: Thanksgiving the fourth Thursday of November, Mother's Day the second Sunday
 *   of May, Father's Day the third Sunday of June, Memorial Day the last Monday of May, Labor Day the first Monday of
 *   September; Easter Sunday by the Gregorian computus.
 * - "last Christmas" is the latest one before today; "next Christmas" the first after today. Otherwise the clause's
 *   tense decides (tense.ts): the latest up to today for what has been ("we went skiing at Christmas", "this
 *   Christmas was quiet"), the first from today for what is to come ("I'm hosting on Thanksgiving"); when it says
 *   neither, "this Christmas" is the current year's and a bare one the nearest.
 * - Only after one of those words or a preposition of time ("on", "at", "for", "over", "during", "since", "before",
 *   "after", "until", "by", "around"), and not when a noun follows: "Christmas magic", "Thanksgiving traditions" and
 *   "a Halloween costume" name kinds of things, not a day; nor in a sentence about every year ("During Thanksgiving
 *   we usually watch movies").
 */
import { matchesOf } from '../../domain/matches.js';
import { dayOf, daySpan, localDate, type Span } from './calendar.js';
import { clauseTense, occurrenceFor } from './tense.js';
import { RANK, type Candidate, type MatchContext } from './types.js';

type DayOf = (year: number) => { month: number; day: number };

const fixed =
  (month: number, day: number): DayOf =>
  () => ({ month, day });

/** The n-th (1-based; -1 the last) given weekday (0 = Sunday) of a month. */
const nthWeekday =
  (month: number, weekday: number, n: number): DayOf =>
  (year) => {
    if (n > 0) {
      const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
      return { month, day: 1 + ((weekday - first + 7) % 7) + 7 * (n - 1) };
    }
    const lastDay = new Date(Date.UTC(year, month, 0));
    return { month, day: lastDay.getUTCDate() - ((lastDay.getUTCDay() - weekday + 7) % 7) };
  };

/** Easter Sunday, by the anonymous Gregorian algorithm. */
export function easter(year: number): { month: number; day: number } {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return { month, day: ((h + l - 7 * m + 114) % 31) + 1 };
}

/** Each holiday's names (a regular-expression alternation, longest first) and its day in a year. */
const HOLIDAYS: ReadonlyArray<[string, DayOf]> = [
  [String.raw`christmas\s+eve`, fixed(12, 24)],
  [String.raw`christmas(?:\s+day)?|xmas`, fixed(12, 25)],
  [String.raw`new\s+year['’]?s\s+eve`, fixed(12, 31)],
  [String.raw`new\s+year['’]?s(?:\s+day)?`, fixed(1, 1)],
  [String.raw`valentine['’]?s(?:\s+day)?`, fixed(2, 14)],
  [String.raw`st\.?\s+patrick['’]?s\s+day`, fixed(3, 17)],
  [String.raw`halloween`, fixed(10, 31)],
  [String.raw`(?:the\s+)?(?:fourth|4th)\s+of\s+july|independence\s+day`, fixed(7, 4)],
  [String.raw`thanksgiving(?:\s+day)?`, nthWeekday(11, 4, 4)],
  [String.raw`mother['’]?s\s+day`, nthWeekday(5, 0, 2)],
  [String.raw`father['’]?s\s+day`, nthWeekday(6, 0, 3)],
  [String.raw`memorial\s+day`, nthWeekday(5, 1, -1)],
  [String.raw`labou?r\s+day`, nthWeekday(9, 1, 1)],
  [String.raw`easter(?:\s+sunday)?`, easter],
];

/**
 * "last / this / next" and the name; or the name after a preposition of time, which stays out of the match so that
 * "since", "before", "after" and "until" modify it as they do any date (combine.ts).
 */
const PATTERN = new RegExp(
  String.raw`(?:\b(last|this|next)\s+|(?<=\b(on|at|for|over|during|since|before|after|until|by|around)\s+))(${HOLIDAYS.map(([names]) => `(?:${names})`).join('|')})\b`,
  'gi',
);

/** A lower-case word after the name that makes it a kind of thing ("Christmas tree"), unless a function word. */
const KIND_AFTER =
  /^\s+(?!(?:with|and|or|in|at|on|we|i|my|our|the|this|last|next|when|while|so|but|to|for|of|is|was|will)\b)[a-z]{3,}\b/;

/** A sentence that says what is done every year ("During Thanksgiving we usually watch movies"): no one day. */
const HABIT =
  /\b(?:usually|always|typically|normally|often|every\s+year|each\s+year|every\s+(?:christmas|thanksgiving|easter|halloween))\b/i;

function sentenceAround(text: string, at: number): string {
  const start = Math.max(0, ...['.', '!', '?', '\n'].map((p) => text.lastIndexOf(p, at) + 1));
  const ends = ['.', '!', '?', '\n'].map((p) => text.indexOf(p, at)).filter((i) => i >= 0);
  return text.slice(start, ends.length > 0 ? Math.min(...ends) : text.length);
}

/** Each holiday's whole-name test, compiled once. */
const WHOLE_NAMES = HOLIDAYS.map(([names, dayOf]) => [new RegExp(`^(?:${names})$`, 'i'), dayOf] as const);

function dayOfHoliday(name: string, year: number): { month: number; day: number } | null {
  for (const [whole, dayOf] of WHOLE_NAMES) if (whole.test(name)) return dayOf(year);
  return null;
}

export function holidayCandidates(ctx: MatchContext): Candidate[] {
  const out: Candidate[] = [];
  for (const m of matchesOf(PATTERN, ctx.text)) {
    const name = (m[3] ?? '').replace(/\s+/g, ' ');
    const to = m.index + m[0].length;
    if (KIND_AFTER.test(ctx.text.slice(to)) || HABIT.test(sentenceAround(ctx.text, m.index))) continue;
    const lead = (m[1] ?? m[2] ?? '').toLowerCase();
    const span = holidaySpan(name, lead, ctx, m.index, to);
    if (span) out.push({ from: m.index, to, ...span, kind: 'relative', rank: RANK.relative });
  }
  return out;
}

function holidaySpan(name: string, lead: string, ctx: MatchContext, from: number, to: number): Span | null {
  const now = localDate(ctx.now, ctx.tz);
  const today = dayOf(ctx.now, ctx.tz).start;
  const days = [now.year - 1, now.year, now.year + 1].flatMap((year) => {
    const d = dayOfHoliday(name, year);
    return d ? [daySpan(year, d.month, d.day, ctx.tz)] : [];
  });
  if (days.length === 0) return null;
  if (lead === 'last') return [...days].reverse().find((d) => d.start < today) ?? null;
  if (lead === 'next') return days.find((d) => d.start > today) ?? null;
  // "since Thanksgiving" looks back whatever the verb ("since Memorial Day I have run daily").
  const tense = lead === 'since' ? 'past' : clauseTense(ctx.text, from, to);
  if (tense === null && lead === 'this') return days.find((d) => localDate(d.start, ctx.tz).year === now.year) ?? null;
  const start = occurrenceFor(
    days.map((d) => d.start),
    today,
    tense,
  );
  return days.find((d) => d.start === start) ?? null;
}
