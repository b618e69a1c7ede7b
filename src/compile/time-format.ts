import { humanizeDuration, relativeTime } from '../domain/humanize.js';
import { localParts, MONTH_NAMES } from '../domain/time.js';
import { startWord, type Period } from '../domain/world.js';

/**
 * How times are written for an LLM or a person (DESIGN.md §4): `semantic` (relative + period, no dates),
 * `absolute` (exact dates), `hybrid` (date + relative + period). `auto` is chosen per question by the query layer.
 */
export type TimeFormat = 'semantic' | 'absolute' | 'hybrid';

export interface TimeContext {
  now: number;
  tz: string;
  format: TimeFormat;
  periods: readonly Period[];
}

const MONTHS = MONTH_NAMES;

/** "15 March 2024" in the user's zone. */
export function longDate(ms: number, tz: string): string {
  const p = localParts(ms, tz);
  return `${p.day} ${MONTHS[p.month - 1] ?? ''} ${p.year}`;
}

/** The period a time falls in: the latest-starting one that contains it (the first listed of equal starts). */
export function periodAt(periods: readonly Period[], time: number): Period | undefined {
  let best: Period | undefined;
  for (const p of periods) {
    if (p.start <= time && (p.end === null || time <= p.end) && (!best || p.start > best.start)) best = p;
  }
  return best;
}

export function periodName(periods: readonly Period[], time: number): string | null {
  return periodAt(periods, time)?.name ?? null;
}

/** One instant in the chosen format: "3 weeks ago (during SF summer)", "15 March 2024", or both. */
export function when(ctx: TimeContext, time: number): string {
  if (ctx.format === 'absolute') return longDate(time, ctx.tz);
  const period = periodName(ctx.periods, time);
  const rel = relativeTime({ at: time, now: ctx.now, tz: ctx.tz });
  const during = period ? `during ${period}` : null;
  switch (ctx.format) {
    case 'semantic':
      return during ? `${rel} (${during})` : rel;
    case 'hybrid':
      return `${longDate(time, ctx.tz)} (${[rel, during].filter(Boolean).join(', ')})`;
  }
}

/**
 * The start of a relationship before its time text: "since 3 May 2023", "by 3 May 2023". A "by" before a relative
 * time would read "by 40 days ago", so in the semantic format it reads "as of 40 days ago".
 */
export function edgeStart(ctx: TimeContext, type: string, timeText: string): string {
  const word = startWord(type);
  return `${word === 'by' && ctx.format === 'semantic' ? 'as of' : word} ${timeText}`;
}

export { humanizeDuration };
