/**
 * When something a sentence tells happened, for the families that record a change of state (a move, a project's
 * launch): the explicit day (dates.ts) or, failing that, the first time said in the sentence that is not still to
 * come ("two years ago", "last summer", "in March", "half a year ago"; personal.ts relativeTimes), with the words as
 * said and what they were resolved to. Null when the sentence names no time. Pure.
 */
import { eventTimeOf, findStatedDate } from '../dates.js';
import type { PatternContext } from './context.js';
import { relativeTimes } from './personal.js';

export interface PastTime {
  /** The words, with their resolution after them where it adds one: "two years ago [2021, two years before …]". */
  text: string;
  /** The event's time; absent when it is the day the sentence was said. */
  eventTime?: string;
}

export function pastTimeOf(ctx: Pick<PatternContext, 's' | 'day' | 'tz'>): PastTime | null {
  const { s } = ctx;
  const stated = findStatedDate(s.text, ctx.day, 'past');
  if (stated)
    return stated.ymd === ctx.day ? { text: stated.text } : { text: stated.text, eventTime: eventTimeOf(stated.ymd) };
  const said = relativeTimes(s.text, s.time, ctx.tz).find((t) => t.eventTime.slice(0, 10) <= ctx.day);
  if (!said) return null;
  const words = s.text.slice(said.from, said.to);
  const text = said.label ? `${words} [${said.label}]` : words;
  return said.eventTime.slice(0, 10) === ctx.day ? { text } : { text, eventTime: said.eventTime };
}
