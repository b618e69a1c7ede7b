/**
 * Where the user lives and works: "I moved to San Francisco on May 18", "I live off campus in College Park",
 * "I'm working at Brightline Labs as a research intern on the retrieval team", "I started my new job at X", "I got an
 * offer from X for a research internship", "my internship at X ended today", "I lost my job at X", "I'm a CS major at
 * UMD", "I graduated from MIT in 2020". Every place named in a user
 * sentence also goes to the episode's locations.
 */
import type { Findings, RelationshipFinding, StateChangeFinding } from '../findings.js';
import { pastTimeOf } from './event-times.js';
import { EVENT_ATTRIBUTE } from '../../../domain/world.js';
import { capitalize, clip, lowerFirst } from '../names.js';
import { E, isHedged, isQuestion, mentionOf, textIndex, type PatternContext } from './context.js';

const MOVED = new RegExp(
  `(?:\\bI|^(?:[A-Za-z]+,?\\s+){0,3}?[Ww]e)(?:'ve| have)?\\s+(?:just\\s+|finally\\s+|officially\\s+)?(?:moved|relocated)\\s+(?:back\\s+)?(?:from\\s+${E}\\s+)?to\\s+(?:the\\s+)?${E}`,
  'i',
);
const LIVE_IN = new RegExp(
  `\\bI(?:(?:['’]m\\s+|\\s+)(?![^.;!?]*\\b(?:to|would|could|will|might|should|'d|'ll)\\s)[^.;!?⟦]{1,40}?\\s+and)?\\s+(?:still\\s+|currently\\s+|now\\s+)?(?:live|am living|'m living|am based|'m based|'m staying|am staying)\\s+(?:[a-z-]+\\s+){0,3}?in\\s+(?:the\\s+)?${E}`,
  'i',
);
const WORK_AT = new RegExp(
  `\\bI(?:'m| am)?\\s+(?:now\\s+|currently\\s+)?(?:working|interning|work|intern|started working|just started working|joined|(?:just\\s+)?(?:started|began|landed|got|took|accepted)\\s+(?:a|my|the)\\s+(?:new\\s+)?(?:full-time\\s+|part-time\\s+)?job)\\s+(?:full-time\\s+)?at\\s+${E}(?:\\s+as\\s+(?:a|an|the)\\s+([a-z][\\w\\s-]{2,40}?))?(?:\\s+on\\s+(?:the|their)\\s+([\\w\\s-]{3,30}?)\\s+team)?(?=[.,;!?]|\\s+(?:and|but|so|since|for|in|this|starting|last|yesterday|today|two|three|a|an|\\d+)\\b|$)`,
  'i',
);
const ROLE_AT = new RegExp(
  `\\bI(?:'m| am)\\s+(?:now\\s+)?(?:a|an|the)\\s+([a-z][\\w\\s-]{2,40}?)\\s+at\\s+(?:the\\s+)?${E}`,
  'i',
);
const OFFER = new RegExp(
  `\\bI\\s+(?:just\\s+)?(?:got|received|accepted|have)\\s+(?:an?\\s+)?(?:job\\s+|internship\\s+|return\\s+)?offer\\s+from\\s+${E}(?:\\s+for\\s+(?:a|an|the)\\s+([a-z][\\w\\s-]{2,40}?))?(?=\\s+(?:on|at|in|with|to)\\b|[.,;!?]|$)`,
  'i',
);
const JOB_ENDED = new RegExp(
  `\\b(?:[Mm]y\\s+(?:internship|job|time|contract|role|position|co-?op)\\s+at\\s+${E}\\s+(?:has\\s+)?(?:officially\\s+)?(?:ended|ends|is over|finished|wrapped up)|I\\s+(?:just\\s+)?(?:left|quit)\\s+(?:my\\s+job\\s+at\\s+)?${E}|[Mm]y\\s+last\\s+day\\s+at\\s+${E}|I\\s+(?:just\\s+|also\\s+)?lost\\s+my\\s+job\\s+at\\s+${E})`,
  'i',
);
/**
 * What can be worked at: an organization, or a product whose company the talk names by it ("I work at Stripe", "a
 * designer at Figma": the gazetteer knows them as tools).
 */
function isEmployer<T extends { type: string }>(m: T | undefined): m is T {
  return m?.type === 'organization' || m?.type === 'tool';
}

/** "I graduated from MIT in 2020": the user studied there until then. */
const GRADUATED = new RegExp(
  `\\bI\\s+(?:just\\s+|finally\\s+|officially\\s+)?graduated\\s+from\\s+(?:the\\s+)?${E}`,
  'i',
);
const SCHOOL = /student|major|freshman|sophomore|junior|senior|undergrad|phd|master|grad/i;

export function findLife(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  const locations = s.mentions.filter((m) => m.type === 'place').map((m) => ({ name: m.name, episodeId: s.episodeId }));
  if (isQuestion(s) || isHedged(s)) return { locations };
  const relationships: RelationshipFinding[] = [];
  const stateChanges: StateChangeFinding[] = [];
  const actions: Findings['actions'] = [];
  const masked = s.masked;
  /** The past time of a match's own clause (event-times.ts); `ongoing` when it tells what is so now. */
  const timeOf = (m: RegExpExecArray, ongoing = false): ReturnType<typeof pastTimeOf> =>
    pastTimeOf(ctx, { start: textIndex(s, m.index), end: textIndex(s, m.index + m[0].length), ongoing });
  /** What the speaker did, as their event in their own timeline ("Lost my job at Door Dash (last week)"). */
  const speakerEvent = (done: string, stated: ReturnType<typeof pastTimeOf>): void => {
    stateChanges.push({
      entityName: s.self,
      attribute: EVENT_ATTRIBUTE,
      newStateAspect: lowerFirst(done),
      whatChanged: `${capitalize(done)}${stated ? ` (${stated.text})` : ''}`,
      isContradiction: false,
      confidence: 0.6,
      episodeId: s.episodeId,
      ...(stated?.eventTime ? { eventTime: stated.eventTime } : {}),
    });
  };
  const rel = (
    target: string,
    type: string,
    properties: Record<string, string>,
    when: ReturnType<typeof pastTimeOf>,
    ended = false,
  ): void => {
    relationships.push({
      source: s.self,
      target,
      type,
      properties,
      ended,
      confidence: 0.8,
      episodeId: s.episodeId,
      ...(when?.eventTime ? { eventTime: when.eventTime } : {}),
    });
  };
  const moved = MOVED.exec(masked);
  const to = mentionOf(s, moved?.[2]);
  if (moved && to?.type === 'place') {
    const stated = timeOf(moved);
    const eventTime = stated?.eventTime;
    const from = mentionOf(s, moved[1]);
    const prior = ctx.registry.get(s.self)?.state.location;
    const old = from?.type === 'place' ? from.name : typeof prior === 'string' ? prior : undefined;
    rel(to.name, 'LIVES_IN', {}, stated);
    if (old && old !== to.name) rel(old, 'LIVES_IN', {}, stated, true);
    stateChanges.push({
      entityName: s.self,
      attribute: 'location',
      oldStateAspect: old,
      newStateAspect: to.name,
      whatChanged: `Moved ${old ? `from ${old} ` : ''}to ${to.name}${stated ? ` (${stated.text})` : ''}`,
      isContradiction: false,
      confidence: 0.85,
      episodeId: s.episodeId,
      ...(eventTime ? { eventTime } : {}),
    });
    actions.push({
      actor: s.self,
      verb: 'moved to',
      object: to.name,
      episodeId: s.episodeId,
      ...(eventTime ? { eventTime } : {}),
    });
  }
  const live = LIVE_IN.exec(masked);
  const home = mentionOf(s, live?.[1]);
  if (live && home?.type === 'place') {
    rel(home.name, 'LIVES_IN', {}, timeOf(live, true));
    stateChanges.push({
      entityName: s.self,
      attribute: 'location',
      newStateAspect: home.name,
      whatChanged: `Lives in ${home.name}`,
      isContradiction: false,
      confidence: 0.75,
      episodeId: s.episodeId,
    });
  }
  const work = WORK_AT.exec(masked);
  const employer = mentionOf(s, work?.[1]);
  if (work && isEmployer(employer)) {
    const props: Record<string, string> = {};
    if (work[2]) props.role = work[2].trim().toLowerCase();
    if (work[3]) props.team = work[3].trim().toLowerCase();
    const ongoing = !/\b(?:started|began|landed|got|took|accepted|joined)\b/i.test(work[0]);
    rel(employer.name, props.role && SCHOOL.test(props.role) ? 'STUDIES_AT' : 'WORKS_AT', props, timeOf(work, ongoing));
  }
  const roleAt = ROLE_AT.exec(masked);
  const place = mentionOf(s, roleAt?.[2]);
  if (roleAt && isEmployer(place) && !work) {
    const role = (roleAt[1] ?? '').trim().toLowerCase();
    rel(place.name, SCHOOL.test(role) ? 'STUDIES_AT' : 'WORKS_AT', { role }, timeOf(roleAt, true));
  }
  const offer = OFFER.exec(masked);
  const offering = mentionOf(s, offer?.[1]);
  if (offer && isEmployer(offering)) {
    const role: Record<string, string> = offer[2] ? { role: clip(offer[2].trim().toLowerCase(), 60) } : {};
    rel(offering.name, 'OFFERED_ROLE_BY', role, timeOf(offer, /\bhave\b/i.test(offer[0])));
  }
  const graduated = GRADUATED.exec(masked);
  const school = mentionOf(s, graduated?.[1]);
  if (graduated && school?.type === 'organization') {
    const stated = timeOf(graduated);
    rel(school.name, 'STUDIES_AT', {}, stated, true);
    // The speaker's event too, for their timeline (a relationship alone would have taken its place).
    speakerEvent(`graduated from ${school.surface}`, stated);
  }
  const ended = JOB_ENDED.exec(masked);
  const former = mentionOf(s, ended?.[1] ?? ended?.[2] ?? ended?.[3] ?? ended?.[4]);
  // "I quit Notion" is a tool dropped (tools.ts); "my last day at Notion" a job that ended.
  const droppedTool = former?.type === 'tool' && /^I\s+(?:just\s+)?(?:left|quit)\s+⟦/.test(ended?.[0] ?? '');
  if (ended && isEmployer(former) && !droppedTool) {
    const stated = timeOf(ended, /\bends\b/i.test(ended[0]));
    const eventTime = stated?.eventTime;
    rel(former.name, 'WORKS_AT', {}, stated, true);
    stateChanges.push({
      entityName: former.name,
      attribute: 'relationship',
      oldStateAspect: 'working there',
      newStateAspect: 'former workplace',
      whatChanged: `${clip(ended[0].replace(/⟦\d+⟧/, former.name), 120)}${stated ? ` (${stated.text})` : ''}`,
      isContradiction: false,
      confidence: 0.8,
      episodeId: s.episodeId,
      ...(eventTime ? { eventTime } : {}),
    });
    // "I lost my job at Door Dash last week" is the speaker's event too, in their timeline, not only the company's.
    const told = /^I\s+(?:just\s+|also\s+)?((?:left|quit|lost)\b.*)$/i.exec(ended[0])?.[1];
    if (told) speakerEvent(told.replace(/⟦\d+⟧/, former.name), stated);
  }
  return { relationships, stateChanges, actions, locations };
}
