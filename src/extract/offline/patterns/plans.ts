/**
 * Plans (docs/offline-extractor.md "Plans"): "I'm flying to Paris tomorrow", "we're putting together a talent show
 * next month", "I'm going to visit my grandma next weekend", "I'll host a party on Saturday". What the speaker is
 * doing or will do at a time still to come has not happened, so it is no event: it sets the speaker's `plan`
 * attribute, dated the day it was said, its value saying when it is for ("flying to Paris (16 January 2025)"). Pure.
 */
import { PLAN_ATTRIBUTE } from '../../../domain/world.js';
import { eventTimeOf } from '../dates.js';
import { lowerFirst } from '../names.js';
import type { StateChangeFinding } from '../findings.js';
import type { NlpVerb } from '../nlp.js';
import { OPEN_END, type PatternContext } from './context.js';
import type { ResolvedTime } from './event-times.js';

/** What parts a time said before a verb from that verb's clause: another clause or sentence in between. */
const CLAUSE_BREAK = /[,;.!?]|\b(?:and|but|so|because|since|which|while|when|after|before)\b/i;

/**
 * Whether a time said before a verb (at `start`) opens that verb's clause: no other clause or sentence between ("Next
 * month I'm running a half marathon", "Last week, I went"), not "I got my approval three months ago, and I'm trying
 * to figure out my options". Pure.
 */
export function leadsClause(text: string, t: Pick<ResolvedTime, 'to'>, start: number): boolean {
  const between = text
    .slice(t.to, start)
    .replace(/^\s*,/, '')
    .replace(/^\s*[;.]\s*$/, '');
  return !CLAUSE_BREAK.test(between);
}

/**
 * The auxiliaries of a future verb phrase, before what will be done; "planning" before a noun phrase too ("planning a
 * family dinner this weekend": the plan is the dinner).
 */
const FUTURE_AUXILIARY =
  /^(?:(?:am|is|are)\s+)?(?:(?:going to|gonna|will|shall|planning (?:to|on)|planning(?=\s+(?:a|an|my|our|the|some|another)\s))\s+)?(?:be\s+(?=\w+ing\b))?/i;

/** A plan whose object only points back at what was said before: "make it", "do that", "try them". */
const POINTS_BACK =
  /^\S+\s+(?:it|them|(?:that|this|those|these|one)(?=$|\s+(?:for|to|with|at|on|in|up|out|over|again|too|together)\b))\b/i;
/** A condition after the plan ("I'll come over tomorrow if that's fine") is not what is planned. */
const CONDITION = /\s+(?:if|unless|as long as)\b.*$/i;

/** Talk to the listener ("I'll chat with you more tomorrow"): a plan of the conversation, not of a life. */
const WITH_YOU = /\b(?:you|your)\b/i;

/**
 * The plan a clause tells; null when no time of the clause is still to come, 'untold' when one is but the plan would
 * say nothing on its own (its object points back, or it is talk to the listener): no plan, and no event either. The
 * coming time must be the clause's own: in its words (`start` to `end`), or before the verb with no other clause
 * between ("Next month I'm running a half marathon"; not "I'm moving in September and I'm trying to finalize …", nor a
 * time in a clause after it, "…, which is why I have a test scheduled on April 1st"); the event's own time (`when`),
 * if any, must be still to come.
 */
export function planOf(
  ctx: PatternContext,
  clause: {
    when: ResolvedTime | undefined;
    /** Times of the sentence wholly after the day it was said (sentenceTimes' `coming`). */
    coming: readonly ResolvedTime[];
    start: number;
    end: number;
    /** What the clause tells, from its verb ("flying to Paris tomorrow"). */
    told: string;
  },
): StateChangeFinding | 'untold' | null {
  const { s } = ctx;
  const { when, start, end, told } = clause;
  if (when && when.eventTime.slice(0, 10) <= ctx.day) return null;
  const coming = clause.coming.find((t) => t.from < end && (t.to > start || leadsClause(s.text, t, start)));
  if (!coming) return null;
  if (WITH_YOU.test(told)) return 'untold';
  const words = s.text.slice(coming.from, coming.to);
  // "going to visit my grandma", "will host a party", "be visiting my parents": the plan is what will be done.
  const done = told.replace(FUTURE_AUXILIARY, '');
  // The object ran on into the time when no past time cut it ("moving to Denver next month"); a cut that would leave
  // it open ("my content for the") keeps the time in it.
  const at = done.lastIndexOf(words);
  const cut = at > 0 ? done.slice(0, at).trim() : done;
  const what = lowerFirst(OPEN_END.test(cut) ? done : cut)
    .replace(CONDITION, '')
    .replace(/\s+/g, ' ')
    .trim();
  // "make it for my family": what "it" is was said before; the plan would not say what is planned.
  if (POINTS_BACK.test(what)) return 'untold';
  return {
    entityName: s.self,
    whatChanged: `Plan: ${what} (${words}${coming.label ? ` [${coming.label}]` : ''})`,
    attribute: PLAN_ATTRIBUTE,
    newStateAspect: `${what} (${coming.label || words})`,
    isContradiction: false,
    confidence: 0.6,
    episodeId: s.episodeId,
    eventTime: eventTimeOf(ctx.day),
  };
}

/**
 * "planning to take a team trip", "planning on running a marathon": compromise reads "planning" and the verb after it
 * apart; together they are one verb phrase of the future (what is planned), as "going to take" is. Pure.
 */
export function planningAsFuture(verbs: readonly NlpVerb[], text: string): NlpVerb[] {
  const out: NlpVerb[] = [];
  for (let i = 0; i < verbs.length; i++) {
    const v = verbs[i];
    const next = verbs[i + 1];
    if (v === undefined) continue;
    const planning =
      v.infinitive.toLowerCase() === 'plan' && v.form === 'present-progressive' && !v.negative && next !== undefined;
    if (planning && /^\s+(?:to|on)\s+$/i.test(text.slice(v.end, next.start))) {
      out.push({ ...next, start: v.start, tense: 'future', form: 'auxiliary-future' });
      i++;
      continue;
    }
    out.push(v);
  }
  return out;
}
