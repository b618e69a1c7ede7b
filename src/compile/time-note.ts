import type { TimeRange } from '../query/time/types.js';
import { longDate } from './time-format.js';

/** The first and the latest conversation a memory holds (their times). */
export interface MemorySpan {
  first: number;
  last: number;
}

/**
 * When time puts a question outside the memory: "now" is before its first conversation (a clock set in the past, or
 * a wrong --now), or every time the question asks about lies before the first conversation or after the latest.
 * When "now" falls inside the memory, before its latest conversation, the context still shows everything it holds:
 * a state called current may have been told after now, and the sentence says so (unless a range note applies).
 * A sentence for the context (whatever else it shows: a large budget is filled with recent turns that do not
 * answer it), or null when time does not. Pure.
 */
export function timeNote(input: {
  now: number;
  tz: string;
  timeRanges: readonly Pick<TimeRange, 'start' | 'end' | 'text'>[];
  span: MemorySpan | null;
}): string | null {
  const { span, tz } = input;
  if (span === null) return 'The memory holds no conversations yet.';
  const first = longDate(span.first, tz);
  const last = longDate(span.last, tz);
  if (input.now < span.first) {
    return `Now (${longDate(input.now, tz)}) is before the first conversation in the memory (${first}); check the clock or --now.`;
  }
  const outside = rangeNote(input.timeRanges, span, first, last);
  if (outside !== null) return outside;
  if (input.now < span.last) {
    return `Now (${longDate(input.now, tz)}) is before the latest conversation in the memory (${last}); what was said after now is shown too, dated ahead of it, so a current state may be one told later.`;
  }
  return null;
}

function rangeNote(
  ranges: readonly Pick<TimeRange, 'start' | 'end' | 'text'>[],
  span: MemorySpan,
  first: string,
  last: string,
): string | null {
  if (ranges.length === 0) return null;
  if (ranges.every((r) => r.end <= span.first)) {
    return `The memory begins on ${first}, after the time asked about ("${ranges[0]?.text ?? ''}").`;
  }
  if (ranges.every((r) => r.start > span.last)) {
    return `The memory's latest conversation is from ${last}, before the time asked about ("${ranges[0]?.text ?? ''}").`;
  }
  return null;
}
