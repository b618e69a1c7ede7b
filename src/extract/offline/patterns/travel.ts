/**
 * Where a speaker has been and where they come from, told in passing: "Took a short trip last week to Rome",
 * "I took this pic in Spain", "my family and I went on a road trip to Oregon", "I was in Chicago", "Been only to Rome
 * once" (VISITED, dated by a past time of its own clause when it has one); "my home country, Sweden", "I grew up in
 * Ohio", "I'm from Boston" (FROM). A trip still to come ("I'm planning a trip to the East Coast", "next month I'm off
 * to Ireland") and a wish ("I want to visit …") are no visit. Moves and homes are ./life.ts's.
 */
import type { Findings, Mention, RelationshipFinding } from '../findings.js';
import { isHedged, isQuestion, mentionOf, textIndex, type PatternContext } from './context.js';
import { pastTimeOf } from './event-times.js';

const PLACE = String.raw`(?:the\s+)?⟦(\d+)⟧`;

/** A past visit to the place the pattern's group 1 names. */
const VISITS: readonly RegExp[] = [
  // "a trip to Rome", "a short trip last week to Rome", "one of my trips to New York City", "vacation in Florida"
  new RegExp(
    String.raw`\b(?:trips?|vacation|vacations|holiday|getaway|honeymoon|road\s+trip|journey|tour|hike|visit)\b(?:\s+[\w'-]+){0,3}?\s+(?:to|in|at|near|around|through|across)\s+(?:a\s+place\s+in\s+)?${PLACE}`,
    'i',
  ),
  // "visited Paris", "went to a place in London", "went to a Harry Potter conference in the UK", "been only to
  // Rome", "was in Chicago", "stayed in Galway"
  new RegExp(
    String.raw`\b(?:visited|went|traveled|travelled|flew|drove|been(?:\s+(?:only|once|twice))?|was|were|stayed|spent\s+[\w\s]{1,20}?)\s+(?:back\s+)?(?:to|in|at)\s+(?:(?:a|an|the)\s+(?:(?:[\w'-]+|⟦\d+⟧)\s+){0,4}?(?:in|at|near)\s+)?${PLACE}`,
    'i',
  ),
  // "took this pic in Spain", "snapped that photo near Fort Wayne"
  new RegExp(
    String.raw`\b(?:took|snapped|shot|got)\s+(?:this|that|the|these|those|a)\s+(?:[\w-]+\s+)?(?:pic|pics|photo|photos|picture|pictures|shot|snap)\s+(?:[\w\s]{0,30}?\s)?(?:in|at|near|on)\s+${PLACE}`,
    'i',
  ),
];

/** Where the speaker comes from. */
const ORIGINS: readonly RegExp[] = [
  new RegExp(String.raw`\bmy\s+home\s*(?:country|town|city|state|island)\s*,?\s+${PLACE}`, 'i'),
  new RegExp(String.raw`\bI(?:'m|\s+am|\s+was|\s+come)\s+(?:originally\s+)?from\s+${PLACE}`, 'i'),
  new RegExp(String.raw`\bI\s+(?:grew\s+up|was\s+born|was\s+raised)\s+(?:[\w-]+\s+){0,2}?in\s+${PLACE}`, 'i'),
];

/** The talk is about a trip still to come, or one only wished for: no visit yet. */
const NOT_YET =
  /\b(?:planning|plan|plans|going\s+to|gonna|will|'ll|next\s+(?:week|month|year|summer|spring|fall|autumn|winter|weekend)|soon|someday|one\s+day|hope|hoping|would\s+love|'d\s+love|dream|dreaming|never|haven't|have\s+not|hasn't|off\s+to|heading\s+to|upcoming|can't\s+wait)\b/i;

/**
 * The speaker said it of themselves (or their family with them): "I", "we", "my", or chat's dropped "I" before a
 * past verb ("Took a short trip…", "Been only to Rome once").
 */
const FIRST_PERSON =
  /\b(?:I|I'm|I've|I'd|we|we're|we've|my|our|me|us)\b|^\W*(?:just\s+|also\s+|finally\s+)?(?:took|went|visited|been|spent|traveled|travelled|flew|drove|stayed|snapped)\b/i;

function placeOf(ctx: PatternContext, index: string | undefined): Mention | null {
  const m = mentionOf(ctx.s, index);
  return m?.type === 'place' ? m : null;
}

export function findTravel(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  // Every rule needs a place named in the sentence: most sentences end here, before any pattern runs.
  if (!s.mentions.some((m) => m.type === 'place')) return {};
  if (isQuestion(s) || isHedged(s) || !FIRST_PERSON.test(s.text)) return {};
  const relationships: RelationshipFinding[] = [];
  const seen = new Set<string>();
  const add = (place: Mention, type: 'VISITED' | 'FROM', eventTime?: string): void => {
    const key = `${type}:${place.name}`;
    if (place.name === s.self || seen.has(key)) return;
    seen.add(key);
    relationships.push({
      source: s.self,
      target: place.name,
      type,
      properties: {},
      ended: false,
      confidence: 0.7,
      episodeId: s.episodeId,
      ...(eventTime ? { eventTime } : {}),
    });
  };
  for (const re of ORIGINS) {
    const place = placeOf(ctx, re.exec(s.masked)?.[1]);
    if (place) add(place, 'FROM');
  }
  if (!NOT_YET.test(s.text)) {
    const visits = VISITS.flatMap((re) => {
      const m = re.exec(s.masked);
      const place = placeOf(ctx, m?.[1]);
      return m && place && !seen.has(`FROM:${place.name}`) ? [{ m, place }] : [];
    });
    // A time of the visit's own clause dates it (event-times.ts): "Took a short trip last week to Rome", not "I was
    // in Chicago, which I left last year".
    for (const { m, place } of visits) {
      const when = pastTimeOf(ctx, { start: textIndex(s, m.index), end: textIndex(s, m.index + m[0].length) });
      add(place, 'VISITED', when?.eventTime);
    }
  }
  return { relationships };
}
