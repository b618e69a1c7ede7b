/**
 * Phrases measured from `now`. Conventions:
 * - "last week / month / year" is the previous calendar unit (weeks run Monday–Sunday); "this …" the current one,
 *   whole (it may reach past `now`); "the week before last" two back.
 * - "N days / weeks / months / years ago" (or "back") is the one calendar unit containing now − N units: a day-wide window for
 *   days, the Monday–Sunday week for weeks, the calendar month, the calendar year. The unit named sets the precision.
 * - "the past N units", "the last N units", "last N units", "past week" are rolling: now − N units → now, at the same
 *   wall-clock time. "the last week" (with "the") is rolling too; "last week" (without) is the calendar week.
 * - "earlier this week / month / year": start of the unit → now.
 * - "last March" is the latest March that has ended; "this March" the one in the current year; "next March" the
 *   first that has not begun.
 * - "last night": 18:00 yesterday → 06:00 today; "tomorrow", "the day after tomorrow" the days after today.
 * - "in N days / weeks …" of what is to come ("I'm moving in two weeks", "it is in 3 days") is the unit N ahead;
 *   otherwise it is how long something took, no date.
 * - "last / this past weekend" is Saturday and Sunday of last week; "N weekends ago" of N weeks back; "over / on the
 *   weekend" the one just gone (this one from its Saturday) or, said of what is to come, the coming one, and no date
 *   when the clause says neither (a habit: "I hike on the weekend").
 * - Weekdays: "Monday" / "on Monday" is the latest Monday up to today, unless its clause speaks of what is to come
 *   ("I'm thinking of a smoothie on Saturday", "I'll schedule the chat for Wednesday", "I'm flying out on Friday":
 *   see futureClause), when it is the first Monday after today; "last Monday" the latest before today; "this
 *   Monday" the one in the current week. Plural "Mondays" and "Monday mornings" are a habit, and "my Tuesday class"
 *   a kind of thing, not dates: they are ignored. Short names ("last Fri", "on Tues") count only after last /
 *   this / next / on.
 */
import { matchesOf } from '../../domain/matches.js';
import { zonedTimeToUtc } from '../../domain/time.js';
import { dayOf, localDate, monthSpan, shiftLocal, unitOf, weekdayOf, type Span } from './calendar.js';
import { RANK, type Candidate, type MatchContext } from './types.js';
import {
  countValue,
  COUNT_PATTERN,
  exactCount,
  isModalMay,
  MONTH_PATTERN,
  monthNumber,
  SHORT_WEEKDAY_PATTERN,
  UNIT_PATTERN,
  unitOf as unitWord,
} from './words.js';
import { clauseTense, futureClause } from './tense.js';

type Rule = (m: RegExpExecArray, ctx: MatchContext) => Span | null;

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** Words before a weekday that make it part of a name or a kind ("the Sunday mass", "Ash Wednesday", "every Monday"). */
const NOT_A_DATE = String.raw`(?<!\b(?:the|a|an|every|each|my|your|his|her|our|their|following|ash|palm|good|holy|maundy|easter|black|cyber|super)\s)`;

/** A weekday said to be today ("Today is Sunday", "it's Friday!") is the day it is said, not another. */
const NOT_TODAY = String.raw`(?<!\b(?:today is|today's|it's|it is)\s)`;

/** After a weekday, the parts of a day in the plural make it a habit ("on Saturday mornings"). */
const NOT_A_HABIT = String.raw`(?!s\b)(?!\s+(?:mornings|afternoons|evenings|nights)\b)`;

/** A thing said to be some time ahead ("the wedding is in"). */
const IS_IN = /\b(?:is|are|'s|'re)\s+(?:only\s+|just\s+)?$/i;

function rolling(count: string | undefined, unit: string, ctx: MatchContext): Span | null {
  const n = count === undefined ? 1 : countValue(count);
  if (n === null || n <= 0) return null;
  return { start: shiftLocal(ctx.now, ctx.tz, unitWord(unit), -n), end: ctx.now };
}

const OFFSET: Record<string, number> = { last: -1, previous: -1, this: 0, current: 0, next: 1 };

function namedMonth(which: string, word: string, ctx: MatchContext): Span | null {
  const month = monthNumber(word);
  if (month === null) return null;
  const year = localDate(ctx.now, ctx.tz).year;
  const w = which.toLowerCase();
  if (w === 'this') return monthSpan(year, month, ctx.tz);
  if (w === 'next') {
    const sameYear = monthSpan(year, month, ctx.tz);
    return sameYear.start > ctx.now ? sameYear : monthSpan(year + 1, month, ctx.tz);
  }
  const sameYear = monthSpan(year, month, ctx.tz);
  return sameYear.end <= ctx.now ? sameYear : monthSpan(year - 1, month, ctx.tz);
}

function weekday(which: string | undefined, word: string, ctx: MatchContext, ahead = false): Span {
  const lower = word.toLowerCase().replace(/\.$/, '');
  const target = WEEKDAYS.findIndex((d) => d.startsWith(lower.slice(0, 3)));
  const today = localDate(ctx.now, ctx.tz);
  const todayIndex = weekdayOf(today);
  const w = which?.toLowerCase();
  let offset: number;
  if (w === 'this') offset = target - todayIndex;
  else if (w === 'next') offset = ((target - todayIndex + 6) % 7) + 1;
  else if (w === 'last') offset = -(((todayIndex - target + 6) % 7) + 1);
  else if (ahead) offset = ((target - todayIndex + 6) % 7) + 1;
  else offset = -((todayIndex - target + 7) % 7);
  return dayOf(ctx.now, ctx.tz, offset);
}

/** A weekday after last / this / next, or a bare one ("on Friday", "for Friday"): ahead when its clause says so. */
function bareOrNamed(m: RegExpExecArray, word: string, ctx: MatchContext): Span | null {
  const which = m[1]?.toLowerCase();
  // A capitalized word before a bare weekday inside a sentence makes it a name ("Travel Tuesday", "Super Bowl
  // Sunday").
  if (
    which === undefined &&
    /\p{L}[\s,;:"'“‘(]+\p{Lu}\p{Ll}+\s+$/u.test(ctx.text.slice(Math.max(0, m.index - 40), m.index))
  ) {
    return null;
  }
  if (which === 'last' || which === 'this' || which === 'next') return weekday(which, word, ctx);
  return weekday(undefined, word, ctx, futureClause(ctx.text, m.index, m.index + m[0].length));
}

/** Saturday and Sunday of the week `offset` weeks from now's ("last weekend" -1, "two weekends ago" -2). */
function weekend(ctx: MatchContext, offset: number): Span {
  const week = unitOf('week', ctx.now, ctx.tz, offset);
  return { start: shiftLocal(week.start, ctx.tz, 'day', 5), end: week.end };
}

/** 18:00 yesterday → 06:00 today, local. */
function lastNight(ctx: MatchContext): Span {
  const today = localDate(ctx.now, ctx.tz);
  const yesterday = localDate(dayOf(ctx.now, ctx.tz, -1).start, ctx.tz);
  return {
    start: zonedTimeToUtc({ ...yesterday, hour: 18 }, ctx.tz),
    end: zonedTimeToUtc({ ...today, hour: 6 }, ctx.tz),
  };
}

const RULES: ReadonlyArray<[RegExp, Rule, ('relative' | 'month')?]> = [
  [/\b(?:the\s+)?day\s+before\s+yesterday\b/gi, (_m, c) => dayOf(c.now, c.tz, -2)],
  [/\byesterday\b/gi, (_m, c) => dayOf(c.now, c.tz, -1)],
  [/\blast\s+night\b/gi, (_m, c) => lastNight(c)],
  [/\b(?:the\s+)?day\s+after\s+tomorrow\b/gi, (_m, c) => dayOf(c.now, c.tz, 2)],
  [/\btomorrow\b/gi, (_m, c) => dayOf(c.now, c.tz, 1)],
  [/\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b/gi, (_m, c) => dayOf(c.now, c.tz)],
  [
    new RegExp(`\\b(?:the\\s+(?:past|last)|past)\\s+(?:(${COUNT_PATTERN})\\s+)?(${UNIT_PATTERN})\\b`, 'gi'),
    (m, c) => rolling(m[1], m[2] ?? '', c),
  ],
  [new RegExp(`\\blast\\s+(${COUNT_PATTERN})\\s+(${UNIT_PATTERN})\\b`, 'gi'), (m, c) => rolling(m[1], m[2] ?? '', c)],
  [
    // "half a year ago", "a year and a half ago": the month that many months back.
    /\b(?:(half)\s+an?\s+year|an?\s+year\s+and\s+a\s+half)\s+(?:ago|back)\b/gi,
    (m, c) => unitOf('month', shiftLocal(c.now, c.tz, 'month', m[1] ? -6 : -18), c.tz),
  ],
  [
    new RegExp(`(?<!\\bhalf\\s+)\\b(${COUNT_PATTERN})\\s+(${UNIT_PATTERN})\\s+(?:ago|back)\\b`, 'gi'),
    (m, c) => {
      // "a few / a couple of months ago" are vague (vague.ts), not one calendar month.
      const n = exactCount(m[1] ?? '');
      if (n === null) return null;
      const unit = unitWord(m[2] ?? '');
      return unitOf(unit, shiftLocal(c.now, c.tz, unit, -n), c.tz);
    },
  ],
  [
    // "in two weeks", said of what is to come ("I'm moving in two weeks", "the wedding is in 3 days"): the unit
    // that many ahead. "I finished it in two days" is how long something took, not when.
    new RegExp(`\\bin\\s+(${COUNT_PATTERN})\\s+(${UNIT_PATTERN})\\b(?!\\s+(?:ago|back|before|after|of)\\b)`, 'gi'),
    (m, c) => {
      const n = exactCount(m[1] ?? '');
      if (
        n === null ||
        !(futureClause(c.text, m.index, m.index + m[0].length) || IS_IN.test(c.text.slice(0, m.index)))
      ) {
        return null;
      }
      const unit = unitWord(m[2] ?? '');
      return unitOf(unit, shiftLocal(c.now, c.tz, unit, n), c.tz);
    },
  ],
  [/\bthe\s+(week|month|year)\s+before\s+last\b/gi, (m, c) => unitOf(unitWord(m[1] ?? ''), c.now, c.tz, -2)],
  [
    /\b(last|previous|this|current|next)\s+(week|month|year)\b/gi,
    (m, c) => unitOf(unitWord(m[2] ?? ''), c.now, c.tz, OFFSET[(m[1] ?? '').toLowerCase()] ?? 0),
  ],
  [
    // Saturday and Sunday of the current week, shifted; the current weekend never ends before now, so "last" is -1.
    /\b(last|this|next)\s+weekend\b/gi,
    (m, c) => weekend(c, OFFSET[(m[1] ?? '').toLowerCase()] ?? 0),
  ],
  [/\b(?:this\s+)?past\s+weekend\b/gi, (_m, c) => weekend(c, -1)],
  [
    // "over the weekend": the one just gone, or the coming one, as its clause says; a habit otherwise ("I hike on
    // the weekend").
    /\b(?:over|on|during|at)\s+the\s+weekend\b(?!s)/gi,
    (m, c) => {
      const tense = clauseTense(c.text, m.index, m.index + m[0].length);
      if (tense === null) return null;
      const current = weekend(c, 0);
      if (tense === 'future') return current.end > c.now ? current : weekend(c, 1);
      return current.start <= c.now ? current : weekend(c, -1);
    },
  ],
  [
    new RegExp(`\\b(${COUNT_PATTERN})\\s+weekends?\\s+ago\\b`, 'gi'),
    (m, c) => {
      const n = exactCount(m[1] ?? '');
      return n === null ? null : weekend(c, -n);
    },
  ],
  [
    /\bearlier\s+this\s+(week|month|year)\b/gi,
    (m, c) => ({ start: unitOf(unitWord(m[1] ?? ''), c.now, c.tz).start, end: c.now }),
  ],
  [
    new RegExp(`\\b(last|this|next)\\s+(${MONTH_PATTERN})\\b`, 'gi'),
    // "if this may be enough" is no month ("last may" is one).
    (m, c) =>
      isModalMay(c.text, m.index + m[0].length - (m[2] ?? '').length, m[2] ?? '')
        ? null
        : namedMonth(m[1] ?? '', m[2] ?? '', c),
    'month',
  ],
  [
    // A weekday after an article or in a feast's name ("the Sunday mass", "a Friday dinner", "Ash Wednesday") names
    // a kind of thing or a day of the church year, not a date.
    new RegExp(
      `\\b(?:(last|this|next|on|for)\\s+)?${NOT_A_DATE}${NOT_TODAY}(${WEEKDAYS.join('|')})\\b${NOT_A_HABIT}`,
      'gi',
    ),
    (m, c) => bareOrNamed(m, m[2] ?? '', c),
  ],
  [
    // "last Fri", "on Tues.": a short weekday only after a word that makes it one ("Sun", "Sat" and "Wed" alone are
    // other words).
    new RegExp(`\\b(last|this|next|on)\\s+(${SHORT_WEEKDAY_PATTERN})\\b\\.?`, 'gi'),
    (m, c) => bareOrNamed(m, m[2] ?? '', c),
  ],
];

export function relativeCandidates(ctx: MatchContext): Candidate[] {
  const out: Candidate[] = [];
  for (const [pattern, rule, kind = 'relative'] of RULES) {
    for (const m of matchesOf(pattern, ctx.text)) {
      const span = rule(m as RegExpExecArray, ctx);
      if (!span) continue;
      out.push({ from: m.index, to: m.index + m[0].length, ...span, kind, rank: RANK.relative });
    }
  }
  return out;
}
