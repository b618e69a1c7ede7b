/**
 * From candidate matches to the final list: overlap resolution, ranges built from two references, and the
 * modifiers before a reference. Conventions:
 * - Overlaps: the longer match wins; on equal length a period beats a season, a relative phrase, a date, a vague
 *   anchor and a bare year, in that order.
 * - "between A and B", "from A to B", "A to / through / until / – B": A's start → B's end, kind 'explicit'. A month
 *   named without a year takes it from the other end ("between May and July 2024" is May–July 2024;
 *   "from November to February 2024" starts in November 2023). "from A to now / until today / to date": A → now.
 * - A list shares its year: "in March and May 2024" is March 2024 and May 2024 (two ranges).
 * - "before X": floor → X's start. "until X": floor → X's end (X included). "after X": X's end → now.
 *   "since X": X's start → now. "during X", "throughout X": X. A modifier keeps X's kind and period id.
 *   The floor is the earliest period start or 1990-01-01 (PLAUSIBLE_MIN_MS), whichever is earlier: PIE stores
 *   nothing older, and an unbounded start would make every "before" range useless for ordering.
 */
import { anchorYear, yearlessSpan } from './chrono.js';
import { localDate } from './calendar.js';
import type { Candidate, MatchContext, Yearless } from './types.js';

export function selectNonOverlapping(candidates: readonly Candidate[]): Candidate[] {
  const byPreference = [...candidates].sort(
    (a, b) => b.to - b.from - (a.to - a.from) || a.rank - b.rank || (b.score ?? 0) - (a.score ?? 0) || a.from - b.from,
  );
  const chosen: Candidate[] = [];
  for (const c of byPreference) {
    if (!chosen.some((o) => c.from < o.to && o.from < c.to)) chosen.push(c);
  }
  return chosen.sort((a, b) => a.from - b.from);
}

const JOINER = /^\s*(?:(?:to|until|till|through|thru)(?:\s+(?:the|my|our))?|[-–—])\s*$/i;
const AND = /^\s*and(?:\s+(?:the|my|our))?\s*$/i;
const LIST = /^\s*(?:,|and|or|,\s*and|,\s*or)\s*$/i;
const RANGE_OPENER = /(?:^|[^\p{L}])(between|from)\s+(?:the\s+|my\s+|our\s+)?$/iu;
const TO_NOW = /^\s*(?:to|until|till|through|up\s+to)\s+(?:now|the\s+present|present|date)\b/i;

function yearlessOf(c: Candidate, ctx: MatchContext): { year: number; at: Yearless } {
  const d = localDate(c.start, ctx.tz);
  return { year: d.year, at: c.yearless ?? { month: d.month, day: d.day } };
}

/** Moves a yearless end of a two-ended range into the year implied by the other end. */
function reanchor(a: Candidate, b: Candidate, ctx: MatchContext): { start: number; end: number } {
  if (a.yearless) {
    const year = anchorYear(a.yearless, { ...yearlessOf(b, ctx), isEnd: true }, ctx);
    return { start: yearlessSpan(a.yearless, year, ctx.tz).start, end: b.end };
  }
  if (b.yearless) {
    const year = anchorYear(b.yearless, { ...yearlessOf(a, ctx), isEnd: false }, ctx);
    return { start: a.start, end: yearlessSpan(b.yearless, year, ctx.tz).end };
  }
  return { start: a.start, end: b.end };
}

function opener(text: string, from: number, floor: number): number | null {
  const before = text.slice(floor, from);
  const m = RANGE_OPENER.exec(before);
  if (!m?.[1]) return null;
  return floor + before.length - m[0].length + m[0].indexOf(m[1]);
}

export function joinRanges(chosen: readonly Candidate[], ctx: MatchContext): Candidate[] {
  const out: Candidate[] = [];
  for (let i = 0; i < chosen.length; i++) {
    const a = chosen[i];
    if (!a) continue;
    const prevEnd = out.at(-1)?.to ?? 0;
    const open = opener(ctx.text, a.from, prevEnd);
    const b = chosen[i + 1];
    const gap = b ? ctx.text.slice(a.to, b.from) : '';
    if (b && (JOINER.test(gap) || (AND.test(gap) && open !== null && /^between/i.test(ctx.text.slice(open))))) {
      const span = reanchor(a, b, ctx);
      if (span.end > span.start) {
        out.push({ ...span, from: open ?? a.from, to: b.to, kind: 'explicit', rank: a.rank });
        i++;
        continue;
      }
    }
    if (b && a.yearless && !b.yearless && LIST.test(gap) && (b.kind === 'month' || b.kind === 'explicit')) {
      // "in March and May 2024": the year written once applies to both.
      const year = anchorYear(a.yearless, { ...yearlessOf(b, ctx), isEnd: true }, ctx);
      const { yearless, ...rest } = a;
      out.push({ ...rest, ...yearlessSpan(yearless, year, ctx.tz) });
      continue;
    }
    const toNow = TO_NOW.exec(ctx.text.slice(a.to));
    if (toNow && a.start < ctx.now) {
      out.push({
        from: open ?? a.from,
        to: a.to + toNow[0].length,
        start: a.start,
        end: ctx.now,
        kind: 'explicit',
        rank: a.rank,
      });
      continue;
    }
    out.push(a);
  }
  return out;
}

const MODIFIER =
  /(?:^|[^\p{L}])(before|after|since|until|till|during|throughout|prior\s+to)\s+(?:the\s+|my\s+|our\s+)?$/iu;

export function applyModifiers(chosen: readonly Candidate[], ctx: MatchContext): Candidate[] {
  return chosen.map((c, i) => {
    const limit = Math.max(chosen[i - 1]?.to ?? 0, c.from - 60);
    const before = ctx.text.slice(limit, c.from);
    const m = MODIFIER.exec(before);
    const word = m?.[1]?.toLowerCase().replace(/\s+/g, ' ');
    if (!m || !word) return c;
    const from = limit + before.length - m[0].length + m[0].indexOf(m[1] ?? '');
    const span = modified(word, c, ctx);
    // The modifier made the range: a yearless reading of what it modifies is not the range any more.
    const { yearless: _read, ...rest } = c;
    return { ...rest, ...span, from };
  });
}

function modified(word: string, c: Candidate, ctx: MatchContext): { start: number; end: number } {
  switch (word) {
    case 'before':
    case 'prior to':
      return { start: Math.min(ctx.floor, c.start), end: c.start };
    case 'until':
    case 'till':
      return { start: Math.min(ctx.floor, c.start), end: c.end };
    case 'after':
      return { start: c.end, end: Math.max(ctx.now, c.end) };
    case 'since':
      return { start: c.start, end: Math.max(ctx.now, c.start) };
    default:
      return { start: c.start, end: c.end };
  }
}
