/**
 * Bare years ("in 2023" → the whole year), year spans ("2022–2024", "2023-24") and ISO year-months ("2024-03").
 *
 * A four-digit number 1900–2099 is a year unless a content word follows it: "I have 2000 photos" is not the year
 * 2000, "in 2023", "2023 was", "Berlin 2019?" are years. After a strong preposition ("in 2023 alone") any word may
 * follow.
 * "2011-12" is read as the ISO month December 2011; a two-digit second year is a span only above 12 ("2023-24").
 */
import { monthSpan, yearSpan } from './calendar.js';
import { RANK, type Candidate, type MatchContext } from './types.js';

const YEAR = '(19\\d{2}|20\\d{2})';
/** Not part of a longer number or ISO date. */
const END = '(?!\\d|[-/.]\\d)';

/** Prepositions that make a year of a number even when a noun follows ("in 2023 alone"). */
const STRONG_BEFORE = /(?:^|[^\p{L}])(?:in|during|since|before|after|until|till|from|between|through|circa)\s+$/iu;
/** Words after a year that still leave it a year ("2023 was", "2022 and 2024", "2019 when I…"). */
const FUNCTION_AFTER = new Set(
  'and or to through until till i we he she they you it was were is had did when where while with in at on for the my'.split(
    ' ',
  ),
);

function yearLike(ctx: MatchContext, from: number, to: number): boolean {
  const next = /^\s*(\p{L}+)/u.exec(ctx.text.slice(to).replace(/^['’]s\b/, ''))?.[1]?.toLowerCase();
  if (next === undefined || FUNCTION_AFTER.has(next)) return true;
  return STRONG_BEFORE.test(ctx.text.slice(Math.max(0, from - 20), from));
}

export function yearCandidates(ctx: MatchContext): Candidate[] {
  const out: Candidate[] = [];
  for (const m of ctx.text.matchAll(new RegExp(`(?<![\\d/.-])${YEAR}${END}`, 'g'))) {
    const to = m.index + m[0].length;
    if (!yearLike(ctx, m.index, to)) continue;
    out.push({ from: m.index, to, ...yearSpan(Number(m[1]), ctx.tz), kind: 'year', rank: RANK.year });
  }
  for (const m of ctx.text.matchAll(new RegExp(`(?<![\\d/.-])${YEAR}\\s*[-–—]\\s*(\\d{4}|\\d{2})${END}`, 'g'))) {
    const first = Number(m[1]);
    const second = m[2] ?? '';
    const to = m.index + m[0].length;
    if (second.length === 2 && Number(second) <= 12) {
      if (Number(second) >= 1 && /^\d{4}-\d{2}$/.test(m[0])) {
        out.push({
          from: m.index,
          to,
          ...monthSpan(first, Number(second), ctx.tz),
          kind: 'month',
          rank: RANK.explicit,
        });
      }
      continue;
    }
    const last = second.length === 2 ? Math.floor(first / 100) * 100 + Number(second) : Number(second);
    if (last <= first) continue;
    out.push({ from: m.index, to, ...yearSpan(first, ctx.tz, last - first + 1), kind: 'year', rank: RANK.year });
  }
  return out;
}
