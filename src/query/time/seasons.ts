/**
 * Seasons and parts of a year. Conventions:
 * - Meteorological northern-hemisphere seasons: spring Mar–May, summer Jun–Aug, autumn/fall Sep–Nov, winter Dec–Feb.
 * - A season's year is the year it starts in: "winter 2023" is Dec 2023 – Feb 2024, as is "winter 2023-24".
 * - "last spring": the latest spring that has ended. "this summer" or a bare "summer" ("in the summer"): the one
 *   containing now, else the latest that has begun (so "this summer" asked in November is the summer just gone).
 *   "next winter": the first that has not begun. "the summer before last": the one before "last summer".
 * - "summer last year" / "last year's summer": the season starting in the previous calendar year.
 * - "early 2024" Jan–Apr, "mid 2024" May–Aug, "late 2023" Sep–Dec (thirds); "the beginning / middle / end of 2024"
 *   likewise. "early / mid / late March (2024)": days 1–10, 11–20, 21–end.
 * - A bare season word needs a temporal word before it ("in the spring", "during summer"), because "spring" and
 *   "fall" are also ordinary words ("I fall asleep", "a hot spring").
 */
import { matchesOf } from '../../domain/matches.js';
import { daySpan, latestYearStarted, localDate, monthSpan, type Span } from './calendar.js';
import { RANK, type Candidate, type MatchContext } from './types.js';
import { MONTH_PATTERN, monthNumber } from './words.js';

const SEASON_PATTERN = 'spring|summer|autumn|fall|winter';
const FIRST_MONTH: Record<string, number> = { spring: 3, summer: 6, autumn: 9, fall: 9, winter: 12 };

export function seasonSpan(season: string, year: number, tz: string): Span {
  return monthSpan(year, FIRST_MONTH[season.toLowerCase()] ?? 3, tz, 3);
}

/** Year of the latest such season that has begun (when `ended`, that has ended) by now. */
function latestSeasonYear(season: string, ctx: MatchContext, ended: boolean): number {
  let year = localDate(ctx.now, ctx.tz).year;
  for (;;) {
    const s = seasonSpan(season, year, ctx.tz);
    if ((ended ? s.end : s.start) <= ctx.now) return year;
    year--;
  }
}

function relativeSeason(which: string, season: string, ctx: MatchContext): Span {
  const w = which.toLowerCase();
  if (w === 'last' || w === 'past') return seasonSpan(season, latestSeasonYear(season, ctx, true), ctx.tz);
  if (w === 'next') return seasonSpan(season, latestSeasonYear(season, ctx, false) + 1, ctx.tz);
  return seasonSpan(season, latestSeasonYear(season, ctx, false), ctx.tz);
}

/** "2024", "'24" → 2024. */
function fullYear(text: string): number {
  const digits = text.replace(/^'/, '');
  return digits.length === 2 ? 2000 + Number(digits) : Number(digits);
}

const THIRD: Record<string, number> = { early: 0, beginning: 0, start: 0, mid: 1, middle: 1, late: 2, end: 2 };

function yearThird(word: string, year: number, tz: string): Span {
  return monthSpan(year, 1 + 4 * (THIRD[word.toLowerCase()] ?? 0), tz, 4);
}

function monthThird(word: string, month: number, year: number, tz: string): Span {
  const third = THIRD[word.toLowerCase()] ?? 0;
  if (third === 2) return { start: daySpan(year, month, 21, tz).start, end: monthSpan(year, month, tz).end };
  return daySpan(year, month, 1 + 10 * third, tz, 10);
}

type Rule = (m: RegExpExecArray, ctx: MatchContext) => Span | null;
const YEAR = `(\\d{4}|'\\d{2})`;
const S = `(${SEASON_PATTERN})`;

const RULES: ReadonlyArray<[RegExp, Rule, 'season' | 'month']> = [
  [
    new RegExp(`\\bthe\\s+${S}\\s+before\\s+last\\b`, 'gi'),
    (m, c) => seasonSpan(m[1] ?? '', latestSeasonYear(m[1] ?? '', c, true) - 1, c.tz),
    'season',
  ],
  [
    new RegExp(`\\b(last|this|next|past)\\s+${S}\\b`, 'gi'),
    (m, c) => relativeSeason(m[1] ?? '', m[2] ?? '', c),
    'season',
  ],
  [
    new RegExp(`\\b(?:the\\s+)?${S}\\s+(?:of\\s+)?${YEAR}(?:\\s*[-–/]\\s*(?:\\d{4}|\\d{2}))?(?![\\w/-])`, 'gi'),
    (m, c) => seasonSpan(m[1] ?? '', fullYear(m[2] ?? ''), c.tz),
    'season',
  ],
  [
    new RegExp(`\\b${S}\\s+(?:of\\s+)?(last|this)\\s+year\\b|\\b(last|this)\\s+year'?s\\s+${S}\\b`, 'gi'),
    (m, c) => {
      const season = m[1] ?? m[4] ?? '';
      const which = (m[2] ?? m[3] ?? '').toLowerCase();
      return seasonSpan(season, localDate(c.now, c.tz).year - (which === 'last' ? 1 : 0), c.tz);
    },
    'season',
  ],
  [
    new RegExp(
      `(?<=\\b(?:in|during|over|since|before|after|until|through|throughout|that|of)\\s+(?:the\\s+)?)${S}\\b`,
      'gi',
    ),
    (m, c) => relativeSeason('this', m[1] ?? '', c),
    'season',
  ],
  [
    new RegExp(`\\b(early|mid|late)[\\s-]+${YEAR}\\b|\\bthe\\s+(beginning|start|middle|end)\\s+of\\s+${YEAR}\\b`, 'gi'),
    (m, c) => yearThird(m[1] ?? m[3] ?? '', fullYear(m[2] ?? m[4] ?? ''), c.tz),
    'season',
  ],
  [
    /\b(early|mid|late)[\s-]+(last|this)\s+year\b/gi,
    (m, c) => yearThird(m[1] ?? '', localDate(c.now, c.tz).year - (m[2]?.toLowerCase() === 'last' ? 1 : 0), c.tz),
    'season',
  ],
  [
    new RegExp(`\\b(early|mid|late)[\\s-]+(${MONTH_PATTERN})\\b(?:,?\\s+(\\d{4})\\b)?`, 'gi'),
    (m, c) => {
      const month = monthNumber(m[2] ?? '');
      if (month === null) return null;
      const year = m[3] ? Number(m[3]) : latestYearStarted(month, 1, c.now, c.tz);
      return monthThird(m[1] ?? '', month, year, c.tz);
    },
    'month',
  ],
];

export function seasonCandidates(ctx: MatchContext): Candidate[] {
  const out: Candidate[] = [];
  for (const [pattern, rule, kind] of RULES) {
    for (const m of matchesOf(pattern, ctx.text)) {
      const span = rule(m as RegExpExecArray, ctx);
      if (span) out.push({ from: m.index, to: m.index + m[0].length, ...span, kind, rank: RANK.season });
    }
  }
  return out;
}
