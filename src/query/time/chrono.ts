/**
 * Explicit calendar dates via chrono-node: "March 3, 2024", "2024-03-15", "5/6/2024" (US order), "March 2024",
 * "Jan 2024 to March 2024", "March" alone.
 *
 * chrono is limited to its calendar parsers: relative phrases ("yesterday", "3 weeks ago"), weekdays and times of
 * day are read by relative.ts instead, where the window each one covers is decided. Granularity comes from what the
 * text states: a day when a day is named, else the whole month. A month or day named without a year is the latest
 * one that has begun by `now` ("March" in November 2025 is March 2025).
 *
 * Guards against chrono's false positives: a date without a year must name its month in words ("3/4 of my time" is
 * not 4 March), and a month name in lowercase must follow a temporal preposition ("I may 5 times", "we march on").
 */
import * as chrono from 'chrono-node';
import { daySpan, latestYearStarted, monthSpan, type Span } from './calendar.js';
import { RANK, type Candidate, type MatchContext, type Yearless } from './types.js';
import { followsTemporalPreposition, isModalMay, MONTH_PATTERN, monthNumber } from './words.js';

/** chrono's calendar parsers, by class name. An allow-list, so a chrono upgrade that renames them fails tests loudly. */
const CALENDAR_PARSERS = new Set([
  'ISOFormatParser',
  'SlashDateFormatParser',
  'ENMonthNameLittleEndianParser',
  'ENMonthNameMiddleEndianParser',
  'ENMonthNameParser',
  'ENSlashMonthFormatParser',
  'ENYearMonthDayParser',
  'ENYearMonthNameParser',
]);

let calendarChrono: chrono.Chrono | null = null;

/** Built on first use, not at import time. */
function calendarParser(): chrono.Chrono {
  if (!calendarChrono) {
    const c = chrono.casual.clone();
    c.parsers = c.parsers.filter((p) => CALENDAR_PARSERS.has(p.constructor.name));
    calendarChrono = c;
  }
  return calendarChrono;
}

interface DateParts {
  year: number | null;
  month: number;
  day: number | null;
}

function partsOf(c: chrono.ParsedComponents): DateParts | null {
  const month = c.isCertain('month') ? c.get('month') : null;
  if (month === null) return null;
  return {
    year: c.isCertain('year') ? c.get('year') : null,
    month,
    day: c.isCertain('day') ? c.get('day') : null,
  };
}

function spanOf(p: DateParts, year: number, tz: string): Span {
  return p.day === null ? monthSpan(year, p.month, tz) : daySpan(year, p.month, p.day, tz);
}

/** Does (month, day) of `a` come after that of `b` within a year? */
function laterInYear(a: Yearless, b: Yearless): boolean {
  return a.month !== b.month ? a.month > b.month : (a.day ?? 1) > (b.day ?? 1);
}

/** The year for a month/day named without one, taken from the other end of a range or else from `now`. */
export function anchorYear(
  yearless: Yearless,
  other: { year: number; at: Yearless; isEnd: boolean } | null,
  ctx: MatchContext,
): number {
  if (!other) return latestYearStarted(yearless.month, yearless.day ?? 1, ctx.now, ctx.tz);
  // "between November and February 2024": November precedes February, so it is November 2023.
  if (other.isEnd) return laterInYear(yearless, other.at) ? other.year - 1 : other.year;
  return laterInYear(other.at, yearless) ? other.year + 1 : other.year;
}

export function yearlessSpan(y: Yearless, year: number, tz: string): Span {
  return y.day === undefined ? monthSpan(year, y.month, tz) : daySpan(year, y.month, y.day, tz);
}

function toYearless(p: DateParts): Yearless {
  return p.day === null ? { month: p.month } : { month: p.month, day: p.day };
}

const MONTH_WORD = new RegExp(`\\b(?:${MONTH_PATTERN})\\b`, 'i');
const LEADING_PREPOSITION = /^(?:on|in|at)\s+/i;
const RANGE_OPENER = /(?:^|[^\p{L}])(?:from|between)\s+$/iu;

/** Rejects yearless readings that are more likely not dates; see the module comment. */
function plausibleYearless(ctx: MatchContext, index: number, text: string): boolean {
  const word = MONTH_WORD.exec(text);
  if (!word) return false;
  const first = word[0][0] ?? '';
  if (first !== first.toLowerCase()) return true;
  return !isModalMay(ctx.text, index, word[0]) && followsTemporalPreposition(ctx.text, index);
}

export function chronoCandidates(ctx: MatchContext): Candidate[] {
  const out: Candidate[] = [];
  for (const r of calendarParser().parse(ctx.text, new Date(ctx.now))) {
    const lead = LEADING_PREPOSITION.exec(r.text)?.[0].length ?? 0;
    let from = r.index + lead;
    const text = r.text.slice(lead);
    const to = from + text.length;
    const start = partsOf(r.start);
    if (!start) continue;
    const end = r.end ? partsOf(r.end) : null;
    if (start.year === null && (end === null || end.year === null) && !plausibleYearless(ctx, from, text)) continue;

    let startYear: number;
    let endYear: number | null = null;
    if (start.year !== null) startYear = start.year;
    else if (end?.year != null) {
      startYear = anchorYear(toYearless(start), { year: end.year, at: toYearless(end), isEnd: true }, ctx);
    } else startYear = anchorYear(toYearless(start), null, ctx);
    if (end) {
      endYear = end.year ?? anchorYear(toYearless(end), { year: startYear, at: toYearless(start), isEnd: false }, ctx);
    }

    const first = spanOf(start, startYear, ctx.tz);
    const last = end && endYear !== null ? spanOf(end, endYear, ctx.tz) : first;
    if (last.end <= first.start) continue;
    // A range's opening word belongs to it: "from Jan 2024 to March 2024".
    const opener = end ? RANGE_OPENER.exec(ctx.text.slice(Math.max(0, from - 20), from)) : null;
    if (opener) from -= opener[0].length - (/^[^\p{L}]/u.test(opener[0]) ? 1 : 0);
    const candidate: Candidate = {
      from,
      to,
      start: first.start,
      end: last.end,
      kind: end || start.day !== null ? 'explicit' : 'month',
      rank: RANK.explicit,
    };
    if (!end && start.year === null) candidate.yearless = toYearless(start);
    out.push(candidate);
  }
  return out;
}

const FULL_MONTH =
  /\b(january|february|march|april|may|june|july|august|september|october|november|december)\b(?!\s*\d)/gi;

/**
 * A month name standing alone ("between May and July 2024", "in March"), which chrono does not always report.
 * Same guards as above, and "May" additionally needs a temporal preposition ("May I ask…" is not a month).
 */
export function bareMonthCandidates(ctx: MatchContext): Candidate[] {
  const out: Candidate[] = [];
  for (const m of ctx.text.matchAll(FULL_MONTH)) {
    const word = m[1] ?? '';
    const month = monthNumber(word);
    if (month === null) continue;
    const capitalized = word[0] !== word[0]?.toLowerCase();
    if (!followsTemporalPreposition(ctx.text, m.index) && (!capitalized || month === 5)) continue;
    if (isModalMay(ctx.text, m.index, word)) continue;
    const span = yearlessSpan({ month }, anchorYear({ month }, null, ctx), ctx.tz);
    out.push({
      from: m.index,
      to: m.index + word.length,
      ...span,
      kind: 'month',
      rank: RANK.explicit,
      yearless: { month },
    });
  }
  return out;
}
