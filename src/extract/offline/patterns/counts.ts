/**
 * Counts the speaker reaches: "I just reached 500 followers", "I'm now at 600 followers", "my channel hit 1,200
 * subscribers". A count is a state of the speaker named by what is counted (`followers: 600`), which the next count
 * of the same thing replaces: "How many followers do I have now?" is answered by the state, and the count it
 * replaced stays in the history. Only milestone verbs are read ("reached", "hit", "now at"), never "I have 3
 * meetings": what one has at a moment is rarely a standing count. Durations, units and money are no counts.
 */
import type { Findings, StateChangeFinding } from '../findings.js';
import { isHedged, isQuestion, type PatternContext } from './context.js';
import { relativeTimes } from './event-times.js';

const NUMBER = String.raw`(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?k?)`;
/** The speaker or the speaker's own account, channel, shop … as the subject. */
const SUBJECT = String.raw`\b(?:I|[Ww]e|[Mm]y\s+[\w-]+(?:\s+[\w-]+)?|[Oo]ur\s+[\w-]+)`;
const MILESTONE = String.raw`(?:(?:'ve|\s+have|\s+has)\s+)?(?:\s*(?:just|now|finally|officially|already|recently|also)\s+)*(?:reached|hit|crossed|passed|surpassed|topped|got to|grew to)`;
const AT = String.raw`(?:'m|'re|\s+am|\s+are|\s+is)\s+(?:(?:just|now|finally|officially|already|currently)\s+)*(?:at|up to)`;
const COUNT = new RegExp(
  String.raw`${SUBJECT}(?:\s*${MILESTONE}|${AT})\s+(?:over\s+|about\s+|around\s+|almost\s+)?${NUMBER}\s+((?:[A-Z][\w-]*\s+)?[a-z][\w-]*s)\b`,
);
/** Counted words that are a measure, not a thing counted. */
const NOT_COUNTED = /^(?:times|years|miles|pounds|points|percent|degrees|steps|calories|reps|laps|levels?)$/;

export function findCounts(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  if (isQuestion(s) || isHedged(s)) return {};
  const m = COUNT.exec(s.text);
  const value = m?.[1]?.replace(/,/g, '');
  const counted = m?.[2]?.split(/\s+/).pop()?.toLowerCase();
  if (!m || !value || !counted || NOT_COUNTED.test(counted)) return {};
  const tags = ctx.tagger?.lexicon(counted) ?? [];
  if (tags.some((t) => t === 'Duration' || t === 'Unit' || t === 'Currency')) return {};
  // Reached when the sentence says ("I just reached 500 followers last week"), else when it was said.
  const when = relativeTimes(s.text, s.time, ctx.tz)[0];
  const stateChanges: StateChangeFinding[] = [
    {
      entityName: s.self,
      whatChanged: `${counted.charAt(0).toUpperCase()}${counted.slice(1)}: ${value}`,
      attribute: counted,
      newStateAspect: value,
      isContradiction: false,
      confidence: 0.7,
      episodeId: s.episodeId,
      ...(when ? { eventTime: when.eventTime } : {}),
    },
  ];
  return { stateChanges };
}
