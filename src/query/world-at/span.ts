import { PieError } from '../../domain/errors.js';
import { DAY_MS, parseDateArgument, parseIsoTime, startOfLocalDay } from '../../domain/time.js';
import type { Period } from '../../domain/world.js';
import { normalizeName } from '../../resolve/normalize.js';
import { jaroWinkler } from '../../resolve/similarity.js';
import { findTimeRanges, matchPeriod } from '../time/index.js';

/** Where a span came from: a known period, a time expression ("spring 2025"), a date, or the present. */
export type SpanKind = 'period' | 'range' | 'date' | 'now';

/** A stretch of time a person named, and the instant at which the world is read for it. */
export interface Span {
  kind: SpanKind;
  /** Inclusive. */
  start: number;
  /** Exclusive. */
  end: number;
  /**
   * The instant the world is read at: the span's last moment (the period's end for a period), but never later than
   * now while the span is still under way.
   */
  at: number;
  /** The period's name, the time expression or the date as given; "now" for the present. */
  label: string;
  periodId?: string;
  /** A period that has not ended (its end is unknown). */
  ongoing?: boolean;
}

/** The instant a span is read at: its last moment, or now if the span is still under way. */
function readAt(start: number, end: number, now: number): number {
  return Math.min(end - 1, Math.max(start, now));
}

/** The span of a known period: its start to its end, or to now when it is still ongoing. */
export function periodSpan(input: { period: Period; now: number }): Span {
  const { period, now } = input;
  const last = period.end ?? Math.max(period.start, now);
  const span: Span = {
    kind: 'period',
    start: period.start,
    end: last + 1,
    at: period.end ?? readAt(period.start, last + 1, now),
    label: period.name,
    periodId: period.entityId,
  };
  if (period.end === null) span.ongoing = true;
  return span;
}

/** The present: a zero-length span read at `now`. */
export function nowSpan(input: { now: number }): Span {
  return { kind: 'now', start: input.now, end: input.now + 1, at: input.now, label: 'now' };
}

const LOOKS_LIKE_DATE = /^\d{4}-\d{1,2}(-\d{1,2})?([T ].*)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** Words a time expression may leave over and still be the whole text ("during May 2024", "the summer"). */
const FILLER = new Set(['in', 'during', 'the', 'of', 'at', 'on', 'from']);

/**
 * A period name or a date given by a person: "now"; a known period (tolerant matching: "SF gap semester" finds
 * "gap semester in San Francisco"); an ISO date (that local day) or date-time (that instant); a time expression
 * ("May 2024", "spring 2025", "last year") that is the whole text. Unknown names fail with NOT_FOUND naming the
 * closest periods; a malformed date fails with INVALID_ARGUMENT.
 */
export function resolveSpan(input: { text: string; periods: readonly Period[]; now: number; tz: string }): Span {
  const text = input.text.trim();
  if (text === '') {
    throw new PieError('INVALID_ARGUMENT', 'Give a period name (pie periods lists them) or a date like 2024-05-01.');
  }
  if (text.toLowerCase() === 'now') return nowSpan({ now: input.now });
  const period = matchPeriod({ name: text, periods: input.periods });
  if (period) return periodSpan({ period, now: input.now });

  const ms = parseIsoTime(text, input.tz);
  if (ms !== null) {
    const start = DATE_ONLY.test(text) ? startOfLocalDay(ms, input.tz) : ms;
    const end = DATE_ONLY.test(text) ? startOfLocalDay(start + DAY_MS + DAY_MS / 2, input.tz) : ms + 1;
    return { kind: 'date', start, end, at: readAt(start, end, input.now), label: text };
  }

  // A numeric date with an impossible month or day ("2024-13-01", "2024-02-30") is an error, never another day that
  // a lenient parser makes of it (13 January).
  if (LOOKS_LIKE_DATE.test(text) && !isPossibleNumericDate(text)) parseDateArgument(text, input.tz);
  const range = findTimeRanges({ text, now: input.now, tz: input.tz, periods: input.periods })[0];
  if (range && range.end > range.start && coversText(range.text, text)) {
    const known = range.periodId ? input.periods.find((p) => p.entityId === range.periodId) : undefined;
    if (known) return periodSpan({ period: known, now: input.now });
    return {
      kind: 'range',
      start: range.start,
      end: range.end,
      at: readAt(range.start, range.end, input.now),
      label: range.text,
    };
  }
  // A malformed date ("2024-13-45") gets the message that lists the accepted forms.
  if (LOOKS_LIKE_DATE.test(text)) parseDateArgument(text, input.tz);
  throw unknownSpan(text, input.periods);
}

/** Month 1–12 and, when a day is given, a day that month has ("2024-05" alone names a month). */
function isPossibleNumericDate(text: string): boolean {
  const [, year, month, day] = /^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?/.exec(text) ?? [];
  const m = Number(month);
  if (!year || m < 1 || m > 12) return false;
  if (day === undefined) return true;
  const d = Number(day);
  return d >= 1 && d <= new Date(Date.UTC(Number(year), m, 0)).getUTCDate();
}

/** True when the matched words are all of `text` but filler: "spring" alone does not name "spring break in Tokyo". */
function coversText(matched: string, text: string): boolean {
  const at = text.toLowerCase().indexOf(matched.toLowerCase());
  if (matched === '' || at < 0) return false;
  const rest = `${text.slice(0, at)} ${text.slice(at + matched.length)}`.toLowerCase();
  return rest
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '')
    .every((w) => FILLER.has(w));
}

/** A known period only (`--period`): tolerant name matching, else NOT_FOUND naming the closest periods. */
export function resolvePeriod(input: { text: string; periods: readonly Period[]; now: number }): Span {
  const text = input.text.trim();
  const period = text === '' ? null : matchPeriod({ name: text, periods: input.periods });
  if (period) return periodSpan({ period, now: input.now });
  throw unknownSpan(text, input.periods, 'or use --at with a date like 2024-05-01');
}

function unknownSpan(
  text: string,
  periods: readonly Period[],
  alternative = 'or give a date like 2024-05-01',
): PieError {
  const closest = closestPeriods({ text, periods, limit: 5 });
  const message =
    closest.length === 0
      ? `No period is called "${text}" and PIE knows no period with dates yet; ${alternative.replace(/^or /, '')}.`
      : `No period is called "${text}"; known periods: ${closest.map((n) => `"${n}"`).join(', ')}, ${alternative}.`;
  return new PieError('NOT_FOUND', message, { details: { suggestions: closest } });
}

/** Period names closest to `text` first (string similarity, then shared words, then time order). */
export function closestPeriods(input: { text: string; periods: readonly Period[]; limit: number }): string[] {
  const key = normalizeName(input.text);
  const words = new Set(key.split(' ').filter((w) => w.length > 2));
  const scored = input.periods.map((p, i) => {
    const name = normalizeName(p.name);
    const shared = name.split(' ').filter((w) => words.has(w)).length;
    return { name: p.name, score: jaroWinkler(key, name) + shared, i };
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return [...new Set(scored.map((s) => s.name))].slice(0, input.limit);
}
