import { NAME_ABBREVIATIONS } from '../domain/abbreviations.js';
import { calendarDays, plural } from '../domain/humanize.js';
import { localParts } from '../domain/time.js';
import type { IntervalAnchor } from '../query/evidence.js';
import type { IntervalQuestion } from '../query/interval.js';
import { keyCoverage } from '../query/keywords.js';
import { longDate } from './time-format.js';
import { dayMentioned } from './turn-times.js';

/** An end of the interval, dated: the question's words for it, the day, the conversation and the words that say it. */
interface DatedEnd {
  text: string;
  time: number;
  episodeId: string;
  said: string;
}

/** Words of the matched sentence quoted beside an end, at most. */
const QUOTE_WORDS = 16;

/** Between two sentences: after a sentence's end that is no abbreviation's point ("St. Mary's"). */
const SENTENCE_BREAK = new RegExp(String.raw`(?<=[.!?])(?<!\b(?:${NAME_ABBREVIATIONS})\.)\s+`, 'i');

/**
 * The sentence of a turn that has the most of an end's words (the first of equals), QUOTE_WORDS of its words from
 * just before the first that matches: quoted beside the date, so a reader sees what was matched and can tell a turn
 * about something else. Pure.
 */
export function matchedSentence(text: string, keys: readonly string[]): string {
  // A sentence ends at . ! or ?, not after a title or "St." ("the mass at St. Mary's").
  const sentences = text.split(SENTENCE_BREAK).filter((x) => x.trim() !== '');
  let best = sentences[0] ?? '';
  let bestCoverage = -1;
  for (const sentence of sentences) {
    const coverage = keyCoverage(sentence, keys);
    if (coverage > bestCoverage) [best, bestCoverage] = [sentence, coverage];
  }
  // From just before its first matching word: what a turn says of the thing ("… on February 1st") follows it.
  const words = best.trim().split(/\s+/);
  const first = words.findIndex((w) => keyCoverage(w, keys) > 0);
  const start = Math.max(0, Math.min(first - 2, words.length - QUOTE_WORDS));
  const shown = words.slice(start, start + QUOTE_WORDS).join(' ');
  return `${start > 0 ? '… ' : ''}${shown}${start + QUOTE_WORDS < words.length ? ' …' : ''}`;
}

/** The day an anchor turn dates its end: a past day it names ("yesterday"), else when it was said. Pure. */
export function anchorTime(anchor: IntervalAnchor, tz: string): number {
  const at = anchor.turn.time ?? anchor.episode.createdAt;
  return dayMentioned({ text: anchor.turn.text, at, tz }) ?? at;
}

/**
 * The line that answers "how many days between A and B / since A" from the world's dates, so the model need not
 * count days (pie-paper §4.1): each end dated by the turn that best matches it, cited, then the span in days (and
 * counting both days), weeks, months and years as they apply. Nothing when an end was not found or both ends are the
 * same turn. Pure.
 */
export function intervalLines(input: {
  question: IntervalQuestion;
  anchors: readonly IntervalAnchor[];
  now: number;
  tz: string;
  cite: (episodeId: string) => string;
}): string[] {
  const { question, anchors, tz, cite } = input;
  if (anchors.length !== question.ends.length || anchors.length === 0) return [];
  const ends: DatedEnd[] = anchors.map((a) => ({
    text: a.end.text,
    time: anchorTime(a, tz),
    episodeId: a.episode.id,
    said: matchedSentence(a.turn.text, a.end.keys),
  }));
  const named = (e: DatedEnd) => `“${e.text}” ${longDate(e.time, tz)}${cite(e.episodeId)} (“${e.said}”)`;
  if (ends.length === 1) {
    const [end] = ends as [DatedEnd];
    const days = calendarDays(end.time, input.now, tz);
    if (days <= 0) return [];
    const [exact, ...larger] = spanParts(days, end.time, input.now, tz);
    const ago = [`${exact} ago (${days + 1} counting both days)`, ...larger.map((p) => `${p} ago`)].join(', ');
    return [
      `Time since what the question names (dated by the turn that best matches it, quoted): ${named(end)}: ${ago}.`,
    ];
  }
  const [a, b] = ends as [DatedEnd, DatedEnd];
  if (anchors[0]?.turn === anchors[1]?.turn) return [];
  const [first, last] = a.time <= b.time ? [a, b] : [b, a];
  const days = calendarDays(first.time, last.time, tz);
  const [exact, ...larger] = spanParts(days, first.time, last.time, tz);
  const span =
    days === 0 ? 'the same day' : `${[`${exact} (${days + 1} counting both days)`, ...larger].join(', ')} apart`;
  return [
    `Time between what the question names (dated by the turn that best matches each, quoted): ${named(first)}, then ${named(last)}: ${span}.`,
  ];
}

/**
 * "30 days", "4 weeks and 2 days", "1 month": the days and the larger units a question may count in — weeks up to
 * two years, whole calendar months from the first date up to two years, whole years from one. Pure.
 */
export function spanParts(days: number, from: number, to: number, tz: string): string[] {
  const parts = [plural(days, 'day')];
  if (days >= 7 && days < 730) {
    const rest = days % 7;
    parts.push(`${plural(Math.floor(days / 7), 'week')}${rest > 0 ? ` and ${plural(rest, 'day')}` : ''}`);
  }
  const months = calendarMonths(from, to, tz);
  if (months >= 1 && months < 24) parts.push(plural(months, 'month'));
  if (months >= 12) parts.push(plural(Math.floor(months / 12), 'year'));
  return parts;
}

/** Whole calendar months from one date to a later one in `tz` (15 Jan → 14 Feb is 0, → 15 Feb is 1). */
function calendarMonths(from: number, to: number, tz: string): number {
  const a = localParts(from, tz);
  const b = localParts(to, tz);
  return (b.year - a.year) * 12 + (b.month - a.month) - (b.day < a.day ? 1 : 0);
}
