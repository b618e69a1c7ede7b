import { matchesOf } from '../domain/matches.js';
import { MONTH_NAMES } from '../domain/time.js';
import { dayOf, localDate, monthSpan, shiftLocal, weekOf, yearSpan } from '../query/time/calendar.js';
import { selectNonOverlapping } from '../query/time/combine.js';
import { findTimeRanges, type TimeRange } from '../query/time/index.js';
import type { Candidate } from '../query/time/types.js';
import { relativeCandidates } from '../query/time/relative.js';
import { holidayCandidates } from '../query/time/holidays.js';
import { seasonCandidates, seasonSpan } from '../query/time/seasons.js';
import {
  COUNT_PATTERN,
  exactCount,
  SHORT_WEEKDAY_PATTERN,
  UNIT_PATTERN,
  unitOf as unitWord,
} from '../query/time/words.js';
import { longDate } from './time-format.js';
import { yearlessDates, yearlessLabel } from './yearless-dates.js';

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const DAY = 86_400_000;

/**
 * Relative times in what someone said, resolved against when they said it (pie-paper §4.1: the model should not do
 * date arithmetic): "I went yesterday" said on 8 May 2023 becomes "I went yesterday [7 May 2023]", "last week"
 * becomes "last week [the week before 9 June 2023]", "last year" "[2022]". Only phrases measured from the moment of
 * speaking are resolved (relative.ts conventions), with months and seasons named from it ("last March" "[March
 * 2022]", "last summer" "[the summer of 2022]"); dates written out, a bare season and vague words ("recently") are
 * left as they are, and so is anything that means the day it was said. A day said without its year gets the year
 * ("on January 15th [15 January 2023]": yearless-dates.ts). Pure.
 */
export function annotateRelativeTimes(input: { text: string; at: number; tz: string }): string {
  const { text, at, tz } = input;
  const labelled = [
    ...spokenTimes(input).map((c) => {
      const range: TimeRange = { start: c.start, end: c.end, text: text.slice(c.from, c.to), kind: 'relative' };
      return { from: c.from, to: c.to, label: resolvedLabel(range, at, tz) };
    }),
    ...yearlessDates(input).map((d) => ({ from: d.from, to: d.to, label: yearlessLabel(d, tz) })),
  ].sort((a, b) => a.from - b.from || b.to - a.to);
  let out = '';
  let last = 0;
  for (const c of labelled) {
    if (c.label === null || c.from < last) continue;
    out += `${text.slice(last, c.to)} [${c.label}]`;
    last = c.to;
  }
  return out + text.slice(last);
}

/**
 * The phrases of a text measured from when it was said (see annotateRelativeTimes), in order, none overlapping.
 * Only the relative-phrase rules (regular expressions) run: explicit dates are left as written, so the full finder
 * (chrono-node and the rest) need not run on every turn of a context. Pure.
 */
export function spokenTimes(input: { text: string; at: number; tz: string }): Candidate[] {
  const { text, at, tz } = input;
  if (!RELATIVE_HINT.test(text)) return [];
  const ctx = { text, now: at, tz, periods: [], floor: 0 };
  return selectNonOverlapping([...relativeCandidates(ctx), ...seasonCandidates(ctx), ...holidayCandidates(ctx)])
    .filter((c) => c.kind === 'relative' || saidFromNow(text.slice(c.from, c.to), c, at))
    .sort((a, b) => a.from - b.from);
}

/**
 * The one past day a turn says something happened on ("I went to mass on January 2nd" or "… yesterday", said on 20
 * February 2023 → 2 January 2023, 19 February 2023), or null when it names none or several (then the turn's own time
 * dates what it tells). A date written out wins over a relative one. Pure.
 */
export function dayMentioned(input: { text: string; at: number; tz: string }): number | null {
  const { text, at, tz } = input;
  const today = dayOf(at, tz);
  const days = findTimeRanges({ text, now: at, tz, periods: [] }).filter(
    (r) => r.start < today.start && r.end - r.start <= DAY + 3_600_000 && dayOf(r.start, tz).start === r.start,
  );
  for (const kinds of [['explicit'], ['relative']]) {
    const distinct = new Set(days.filter((r) => kinds.includes(r.kind)).map((r) => r.start));
    if (distinct.size === 1) return [...distinct][0] ?? null;
    if (distinct.size > 1) return null;
  }
  // "two weeks ago": the day that many units before it was said (the finder reads it as that whole week).
  const agos = matchesOf(AGO, text).flatMap((m) => {
    const n = exactCount(m[1] ?? '');
    return n === null ? [] : [dayOf(shiftLocal(at, tz, unitWord(m[2] ?? ''), -n), tz).start];
  });
  return new Set(agos).size === 1 ? (agos[0] ?? null) : null;
}

const AGO = new RegExp(`\\b(${COUNT_PATTERN})\\s+(${UNIT_PATTERN})\\s+(?:ago|back)\\b`, 'gi');
/** A range's own words that are a count of units ago ("two weeks ago"), read once per resolved range. */
const AGO_PHRASE = new RegExp(
  `^((?:half\\s+)?(?:${COUNT_PATTERN}))\\s+(${UNIT_PATTERN}(?:\\s+and\\s+a\\s+half)?)\\s+(?:ago|back)\\b`,
  'i',
);

/** The season a span starting in a month would be (seasons.ts: meteorological, northern hemisphere). */
const SEASON_OF_MONTH: Record<number, string> = { 3: 'spring', 6: 'summer', 9: 'autumn', 12: 'winter' };

/** A weekday's name, whole or short ("last Friday", "last Fri"): its date is said as "the Friday before …". */
const WEEKDAY_WORD = /\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\b\.?$/i;

/**
 * A month or season named from the moment of speaking ("last March", "next winter", "last year's summer"): resolved
 * like "last week". "this summer" only while it lasts: said in February, the seasons' rule (made for questions,
 * where it is the summer just gone) would name last year's.
 */
function saidFromNow(said: string, span: { start: number; end: number }, at: number): boolean {
  const which = /\b(last|this|next|past)\b/i.exec(said)?.[1]?.toLowerCase();
  if (which === undefined) return false;
  return which !== 'this' || (span.start <= at && at < span.end) || /\byear\b/i.test(said);
}

/** A cheap test before the full time-reference finder runs (most turns have no relative time at all). */
const RELATIVE_HINT = new RegExp(
  `\\b(yesterday|tomorrow|ago|back|in (a|an|\\w+) (days?|weeks?|months?|years?)|last|previous|next|past|the weekend|(this|current) (week|month|year|weekend|spring|summer|autumn|fall|winter)|christmas|xmas|new year|valentine|patrick|halloween|july|independence|thanksgiving|mother|father|memorial|labou?r|easter|monday|tuesday|wednesday|thursday|friday|saturday|sunday|on (${SHORT_WEEKDAY_PATTERN}))\\b`,
  'i',
);

/**
 * What a resolved range is called: a day's date, "the week before <date>", a month, a year; null to leave it. A count
 * of weeks, months or years ago also says it from the day it was said, as a weekday does: "two weeks ago" said on
 * 11 August 2023 is "the week of 24 July 2023, two weeks before 11 August 2023".
 */
export function resolvedLabel(range: TimeRange, at: number, tz: string): string | null {
  const label = rangeLabel(range, at, tz);
  // A day's date says it exactly; a week, month or year is named by its start, and the count says which it was.
  const oneDay = range.end - range.start <= DAY + 3_600_000;
  const ago = label === null || oneDay ? null : AGO_PHRASE.exec(range.text);
  if (label === null || ago === null) return label;
  // "a week ago" is the week before, which the label already says ("the week before 20 October 2023").
  const said = ` before ${longDate(at, tz)}`;
  if (label.endsWith(said)) return label;
  return `${label}, ${ago[1]?.toLowerCase() ?? ''} ${ago[2]?.toLowerCase() ?? ''}${said}`;
}

function rangeLabel(range: TimeRange, at: number, tz: string): string | null {
  const same = (s: { start: number; end: number }): boolean => s.start === range.start && s.end === range.end;
  const today = dayOf(at, tz);
  if (same(today)) return null;
  const start = localDate(range.start, tz);
  if (range.end - range.start <= DAY + 3_600_000 && same(dayOf(range.start, tz))) {
    const weekday = WEEKDAY_NAMES[(new Date(Date.UTC(start.year, start.month - 1, start.day)).getUTCDay() + 6) % 7];
    const date = longDate(range.start, tz);
    return WEEKDAY_WORD.test(range.text) && range.start < at
      ? `${date}, the ${weekday ?? ''} before ${longDate(at, tz)}`
      : date;
  }
  // "last night": the evening before.
  if (range.end - range.start <= DAY && range.start < today.start && range.end > today.start) {
    return longDate(range.start, tz);
  }
  const week = weekOf(range.start, tz);
  if (range.end - range.start <= 2 * DAY + 3_600_000 && range.end === week.end) {
    const inside = range.start <= at && at < range.end;
    if (!inside && range.end === weekOf(at, tz, -1).end) return `the weekend before ${longDate(at, tz)}`;
    if (!inside && range.end === weekOf(at, tz).end) return `the weekend after ${longDate(at, tz)}`;
    return `the weekend of ${longDate(range.start, tz)}`;
  }
  if (same(weekOf(at, tz, -1))) return `the week before ${longDate(at, tz)}`;
  if (same(weekOf(at, tz, 1))) return `the week after ${longDate(at, tz)}`;
  // "this week" is named by the day it was said, as "last week" is ("the week before 9 June 2023"); another week by
  // its Monday.
  if (same(weekOf(at, tz))) return `the week of ${longDate(at, tz)}`;
  if (same(week)) return `the week of ${longDate(range.start, tz)}`;
  if (same(monthSpan(start.year, start.month, tz))) return `${MONTH_NAMES[start.month - 1] ?? ''} ${start.year}`;
  const season = SEASON_OF_MONTH[start.month];
  if (season && same(seasonSpan(season, start.year, tz))) {
    // The speaker's word: "last fall" is "the fall of 2023".
    const word = season === 'autumn' && /\bfall\b/i.test(range.text) ? 'fall' : season;
    return word === 'winter'
      ? `the winter of ${start.year}–${String((start.year + 1) % 100).padStart(2, '0')}`
      : `the ${word} of ${start.year}`;
  }
  if (same(yearSpan(start.year, tz))) return String(start.year);
  if (range.end <= at + 60_000 && range.end >= at - 60_000) return `since ${longDate(range.start, tz)}`;
  return null;
}
