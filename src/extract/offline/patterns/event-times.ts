/**
 * When what a sentence tells happened: the times said in it, resolved against when it was said (relativeTimes: "two
 * weeks ago", "last summer", "on January 15th", "from the 20th to the 27th of April", "on May 15, 2019"), which of
 * them is an event's (contrasted), and, for the families that record a change of state (a move, a job, a project's
 * launch), the explicit day or else the first time said that is not still to come (pastTimeOf). Pure.
 */
import { resolvedLabel, spokenTimes } from '../../../compile/turn-times.js';
import {
  writtenDays,
  writtenMonths,
  writtenYears,
  yearlessDates,
  yearlessLabel,
} from '../../../compile/yearless-dates.js';
import { localDayKey } from '../../../domain/time.js';
import { dayOf } from '../../../query/time/calendar.js';
import { eventTimeOf, findStatedDate } from '../dates.js';
import type { PatternContext } from './context.js';
import { leadsClause } from './plans.js';

export interface ResolvedTime {
  from: number;
  to: number;
  /** What the time is called ("14 January 2025"); empty when the words say it whole ("on May 15, 2019"). */
  label: string;
  /** The instant the event is dated at (noon UTC of the range's first day). */
  eventTime: string;
}

/**
 * Relative times in a sentence ("yesterday", "last year", "two weeks ago"), days said without their year ("on
 * December 20th"), resolved against when it was said, and days and months written with their year ("in May 2020")
 * and years written alone ("in 2019").
 */
export function relativeTimes(text: string, at: number, tz: string): ResolvedTime[] {
  return sentenceTimes(text, at, tz).past;
}

/**
 * The times of a sentence (relativeTimes, `past`), and those that lie wholly after the day it was said (`coming`):
 * "tomorrow", "next month", "this weekend" said on a Wednesday, "on December 20th" said in November, each labelled as
 * a past time is and dated at its first day, the day a plan is for. Pure.
 */
export function sentenceTimes(text: string, at: number, tz: string): { past: ResolvedTime[]; coming: ResolvedTime[] } {
  const tomorrow = dayOf(at, tz).end;
  const yearless = yearlessDates({ text, at, tz });
  const spokenAll = spokenTimes({ text, at, tz });
  // A day said without its year is that day; a month, its middle (or the day it was said, while it lasts).
  const days = yearless
    .filter((d) => d.start < at)
    .map((d) => ({
      from: d.from,
      to: d.to,
      label: yearlessLabel(d, tz),
      eventTime: eventTimeOf(localDayKey(d.unit === 'day' ? d.start : Math.min(at, (d.start + d.end) / 2), tz)),
    }));
  /** A spoken time with its label, dated on `day`; none when it has no label. */
  const labelled = (c: (typeof spokenAll)[number], day: number): ResolvedTime[] => {
    const label = resolvedLabel(
      { start: c.start, end: c.end, text: text.slice(c.from, c.to), kind: 'relative' },
      at,
      tz,
    );
    return label === null ? [] : [{ from: c.from, to: c.to, label, eventTime: eventTimeOf(localDayKey(day, tz)) }];
  };
  // A day is that day; a span that holds the moment of speaking ("this month") is dated then; a past span ("last
  // week", "last year") at its middle, the least wrong single day.
  const spoken = spokenAll
    .filter((c) => c.start < at + 86_400_000)
    .flatMap((c) => labelled(c, c.end - c.start <= 86_400_000 + 3_600_000 ? c.start : spanDay(c.start, c.end, at)));
  // A day written out with its year dates the event as it is; it needs no label.
  const written: ResolvedTime[] = writtenDays({ text, tz })
    .filter((d) => d.start < at)
    .map((d) => ({ from: d.from, to: d.to, label: '', eventTime: eventTimeOf(localDayKey(d.start, tz)) }));
  // A month written with its year, then a year written alone ("I adopted my dog Luna in 2019"), is dated as a span
  // said is (spanDay), where no day written with its year already covers its words.
  for (const d of [...writtenMonths({ text, tz }), ...writtenYears({ text, tz })]) {
    if (d.start >= at || written.some((w) => overlaps(w, d))) continue;
    written.push({
      from: d.from,
      to: d.to,
      label: '',
      eventTime: eventTimeOf(localDayKey(spanDay(d.start, d.end, at), tz)),
    });
  }
  const dated = [...days, ...written];
  // In the order said, none overlapping (a relative phrase first where both cover the same words).
  const past = [...spoken, ...dated.filter((d) => !spoken.some((t) => overlaps(t, d)))].sort((a, b) => a.from - b.from);
  const comingSpoken = spokenAll.filter((c) => c.start >= tomorrow).flatMap((c) => labelled(c, c.start));
  const comingDays = yearless
    .filter((d) => d.start >= tomorrow && !comingSpoken.some((t) => overlaps(t, d)))
    .map((d) => ({
      from: d.from,
      to: d.to,
      label: yearlessLabel(d, tz),
      eventTime: eventTimeOf(localDayKey(d.start, tz)),
    }));
  // A time that owns a noun ("yesterday's exhibition", "last year's festival") says which one, not when the
  // sentence's event was: "I discovered one of my paintings was selected for yesterday's exhibition" (MemoryBank).
  const notPossessive = (t: ResolvedTime) => !POSSESSIVE.test(text.slice(t.to, t.to + 2));
  return {
    past: past.filter(notPossessive),
    coming: [...comingSpoken, ...comingDays].filter(notPossessive).sort((a, b) => a.from - b.from),
  };
}

/** The possessive ending right after a time's words. */
const POSSESSIVE = /^['’]s\b/;

/** Whether two stretches of the text share a character. */
const overlaps = (a: { from: number; to: number }, b: { from: number; to: number }): boolean =>
  a.from < b.to && b.from < a.to;

/**
 * The day an event said to be in [start, end) is dated on: the moment of speaking while the span holds it ("this
 * month"), else its middle, the least wrong single day ("last year", "in 2019").
 */
const spanDay = (start: number, end: number, at: number): number => (start <= at && at < end ? at : (start + end) / 2);

/**
 * Whether a time said after an event's words (which end at `end`) belongs to another clause: one set against it (in
 * "I used to practice yoga three times a week, but I've been slacking off for this month", "this month" is the
 * slacking's; an exception, "except for last Wednesday", is no time of the event either), or one with a subject of
 * its own that hangs on the event's words ("I've been experimenting with my new paint, which I purchased a month ago", "I finished the scarf that I started last winter", "I quit because we
 * moved last month": the purchase, the start and the move are then, not the experimenting, the finishing or the
 * quitting). A time in the clause before, or after a plain comma ("I went to the park with my kids, last Sunday"), is
 * the event's. Pure.
 */
export function contrasted(text: string, t: Pick<ResolvedTime, 'from'>, end: number): boolean {
  if (t.from < end) return false;
  const between = text.slice(end, t.from);
  return (
    /\b(?:but|although|though|whereas|except|apart from|other than)\b/i.test(between) ||
    OWN_SUBJECT_CLAUSE.test(between)
  );
}

/**
 * A relative or causal clause with a subject of its own ("which I …", "that my sister …", "because we …"), or a new
 * clause after a comma ("I've been enjoying it so far, I started subscribing last month").
 */
const OWN_SUBJECT_CLAUSE =
  /\b(?:which|that|who|whom|where|because)\s+(?:I|we|you|he|she|they|my|our|your|his|her|their)\b|,\s*(?:(?:and|so|then)\s+)?(?:I|we|he|she|they)\s+(?!(?:too|also)\b)[a-z]/i;

/**
 * A move, a job, a project's change, a tool taken up or dropped, a visit, a decision: the explicit day (dates.ts), else
 * the first time said that is not still to come ("two years ago", "last summer", "in March", "half a year ago"), with
 * the words as said and what they were resolved to; a range said whole ("from the 20th to the 27th of April") from its
 * first day. Null when the change's clause names no time.
 *
 * Only a time of the change's own clause (`clause`: its words, from its verb to the end of what it names) counts, by
 * the rules that date an event: not one after its words in a clause set against it, an exception or a clause with a
 * subject of its own (contrasted: "I dropped Rust, which I had started last year" is not dated last year); for what is
 * going on or said in the present ("I'm using Obsidian", "not using Jira anymore") not one in a clause before it
 * (leadsClause: "Last week I quit, and now I'm using Obsidian"); for what was done, not one that opens the span it
 * happened within ("Since I started in May, Tidepool went from one pilot lab to 19 labs").
 */
export interface PastTime {
  /** The words, with their resolution after them where it adds one: "two years ago [2021, two years before …]". */
  text: string;
  /** The event's time; absent when it is the day the sentence was said. */
  eventTime?: string;
}

/** A change's own words in its sentence (offsets in `s.text`); `ongoing` when told in the present. */
export interface ClauseSpan {
  start: number;
  end: number;
  ongoing?: boolean;
}

export function pastTimeOf(ctx: Pick<PatternContext, 's' | 'day' | 'tz'>, clause: ClauseSpan): PastTime | null {
  const { s } = ctx;
  const own = (t: { from: number; to: number }): boolean =>
    !contrasted(s.text, t, clause.end) &&
    (clause.ongoing ? t.to > clause.start || leadsClause(s.text, t, clause.start) : !spanStart(s.text, t));
  const said = relativeTimes(s.text, s.time, ctx.tz).filter((t) => t.eventTime.slice(0, 10) <= ctx.day && own(t));
  const stated = findStatedDate(s.text, ctx.day, 'past');
  if (stated) {
    const from = s.text.indexOf(stated.text);
    const span = { from, to: from + stated.text.length };
    // Where the relative rules read more of the same words to another day, the whole phrase wins: a range said whole
    // ("from the 20th to the 27th of April") is its first day, not the day its last words name.
    const wider = said.some(
      (t) => overlaps(t, span) && t.to - t.from > stated.text.length && t.eventTime.slice(0, 10) !== stated.ymd,
    );
    if (own(span) && !wider)
      return stated.ymd === ctx.day ? { text: stated.text } : { text: stated.text, eventTime: eventTimeOf(stated.ymd) };
  }
  const first = said[0];
  if (!first) return null;
  const words = s.text.slice(first.from, first.to);
  const text = first.label ? `${words} [${first.label}]` : words;
  return first.eventTime.slice(0, 10) === ctx.day ? { text } : { text, eventTime: first.eventTime };
}

/**
 * Whether a time opens the span something done happened within, not its day: "since" in its clause ("Since I started
 * my gap semester in May, Tidepool went from one pilot lab to 19 labs": the growth is as of the day it was said).
 */
const spanStart = (text: string, t: { from: number }): boolean =>
  /\bsince\b/i.test(
    text
      .slice(0, t.from)
      .split(/[,;.!?]/)
      .pop() ?? '',
  );
