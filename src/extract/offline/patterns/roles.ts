/**
 * People's roles and relations: "Maya joined as my co-founder on Tidepool", "Maya is now our CEO", "I'm moving to
 * CTO", "He is my mentor and runs the X lab at UMD", "Elena Park, a partner at Northgate Ventures", "Maya took over
 * customer interviews", "Maya is handling design and the frontend", "Sam left the team". "He"/"she" refer to the last
 * person named in the same turn, and only there.
 */
import type { Findings, Mention, RelationshipFinding, StateChangeFinding } from '../findings.js';
import { SELF_NAME } from '../assemble.js';
import { RELATION_NOUNS, relationEdge, ROLE_WORDS } from '../lexicon.js';
import { clip } from '../names.js';
import {
  E,
  isHedged,
  isQuestion,
  mentionOf,
  personOf,
  textIndex,
  WHO,
  unmask,
  type PatternContext,
} from './context.js';
import { pastTimeOf } from './event-times.js';

const ROLES = [...ROLE_WORDS].sort((a, b) => b.length - a.length).join('|');
const RELATIONS = Object.keys(RELATION_NOUNS)
  .sort((a, b) => b.length - a.length)
  .join('|');
const JOINED = new RegExp(
  `${E}\\s+(?:has\\s+|just\\s+|officially\\s+|finally\\s+)*joined\\s+(?:us\\s+|the team\\s+|${E}\\s+)?as\\s+(?:my|our|a|an|the)?\\s*(${ROLES})(?:\\s+(?:on|at|of|for)\\s+${E})?`,
  'i',
);
const NOW_ROLE = new RegExp(
  `${E}\\s+(?:is|has become|became)\\s+(?:now\\s+|officially\\s+)*(?:my|our|the|a|an)?\\s*(${ROLES})\\b`,
  'i',
);
const SELF_ROLE = new RegExp(
  `\\bI(?:'m| am)\\s+(?:now\\s+)?(?:moving|switching|stepping)\\s+(?:in)?to\\s+(?:the\\s+)?(${ROLES})\\b|\\bI(?:'m| am)\\s+now\\s+(?:the|our)\\s+(${ROLES})\\b`,
  'i',
);
/** "Nora is my sister"; not "Max is my mother's cat" (the relation word owns something else). */
const IS_MY = new RegExp(`${WHO}\\s+(?:my|our)\\s+(${RELATIONS}|${ROLES})\\b(?!['’]s\\b)`);
const APPOSITIVE_AT = new RegExp(
  `${E},\\s+(?:a|an|the|our|my)\\s+((?:[\\w-]+\\s+){0,2}?(?:${ROLES}|professor|student|scientist))\\s+(?:at|of|from)\\s+${E}`,
  'i',
);
const RUNS = new RegExp(`${WHO}\\s+(?:also\\s+)?(?:runs|leads|heads|directs|founded|manages)\\s+(?:the\\s+)?${E}`);
const IS_A_AT = new RegExp(
  `${WHO}\\s+(?:a|an)\\s+((?:[\\w-]+\\s+){0,3}?(?:student|major|senior|junior|sophomore|freshman|undergrad|researcher|professor|engineer|designer|developer|intern|scientist|manager|founder|partner|teacher|doctor|nurse|lawyer|analyst|consultant))\\b(?:\\s+(?:at|in)\\s+${E})?`,
);
const STARTED_AT = new RegExp(
  `${WHO}\\s+(?:just\\s+)?started\\s+(?:her|his|their)\\s+((?:freshman|sophomore|junior|senior|first|second|final)\\s+year|phd|master'?s|degree|job|internship)\\s+at\\s+(?:the\\s+)?${E}`,
  'i',
);
const RESPONSIBILITY = new RegExp(
  `${WHO}\\s+(?:took over|is taking over|taking over|is handling|handling|handles|is in charge of|in charge of|is responsible for|owns|is leading|leading|now owns)\\s+(.+)$`,
);
const LEFT = new RegExp(
  `${E}\\s+(?:has\\s+|just\\s+)?(?:left|quit|is leaving)\\s+(?:the team|the company|us|${E})`,
  'i',
);
const RESP_END =
  /\s*(?:[;:!?]|\.(?:\s|$)|,\s+(?:and|but|so|since|because|which)\s+|\s+(?:since|because|while|so that)\s+|\s+—|\s+-\s+|\s+from me\b)/i;
const SCHOOL = /student|major|senior|junior|sophomore|freshman|undergrad|year|phd|master|degree/i;

function normRole(role: string): string {
  const r = role.toLowerCase().replace(/\s+/g, ' ');
  if (r === 'cofounder' || r === 'co founder') return 'co-founder';
  return ['ceo', 'cto', 'cfo', 'coo', 'cpo'].includes(r) ? r.toUpperCase() : r;
}

function typed(m: Mention | undefined, type: string): string | null {
  return m?.type === type ? m.name : null;
}

export function findRoles(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  if (isQuestion(s) || isHedged(s)) return {};
  const relationships: RelationshipFinding[] = [];
  const stateChanges: StateChangeFinding[] = [];
  const entities: Findings['entities'] = [];
  const project = s.mentions.find((m) => m.type === 'project')?.name ?? ctx.focusProject;
  const masked = s.masked;
  /**
   * The time of a change's own clause, its words from `start` to `end` of the masked sentence (event-times.ts): one
   * said with what was done ("Maya joined as our CTO last month") or, for what is so now ("Maya is now our CEO"), one
   * of that clause's.
   */
  const timeOf = (start: number, end: number, tense: 'past' | 'present'): string | undefined =>
    pastTimeOf(ctx, { start: textIndex(s, start), end: textIndex(s, end), ongoing: tense === 'present' })?.eventTime;
  const matchEnd = (m: RegExpExecArray): number => m.index + m[0].length;
  const rel = (
    source: string,
    target: string,
    type: string,
    properties: Record<string, string>,
    ended = false,
    eventTime?: string,
  ): void => {
    relationships.push({
      source,
      target,
      type,
      properties,
      ended,
      confidence: 0.8,
      episodeId: s.episodeId,
      ...(eventTime ? { eventTime } : {}),
    });
  };
  const role = (person: string, value: string, what: string, work: boolean, eventTime?: string): void => {
    const prior = ctx.registry.get(person)?.state.role;
    stateChanges.push({
      entityName: person,
      attribute: 'role',
      oldStateAspect: typeof prior === 'string' && prior !== value ? prior : undefined,
      newStateAspect: value,
      whatChanged: what,
      isContradiction: typeof prior === 'string' && prior !== value,
      confidence: 0.8,
      episodeId: s.episodeId,
      ...(eventTime ? { eventTime } : {}),
    });
    if (work && project) rel(person, project, 'WORKS_ON', { role: value }, false, eventTime);
  };
  const joined = JOINED.exec(masked);
  if (joined) {
    const person = personOf(ctx, joined[1], undefined);
    const target = typed(mentionOf(s, joined[4] ?? joined[2]), 'project') ?? project;
    const value = normRole(joined[3] ?? '');
    if (person) {
      const when = timeOf(joined.index, matchEnd(joined), 'past');
      role(person, value, `${person} joined${target ? ` ${target}` : ''} as ${value}`, false, when);
      if (target) rel(person, target, 'WORKS_ON', { role: value }, false, when);
      if (/\b(?:my|our)\b/i.test(joined[0])) rel(person, s.self, 'COLLABORATES_WITH', { relation: value }, false, when);
    }
  }
  const now = NOW_ROLE.exec(masked);
  if (now && !joined) {
    const person = personOf(ctx, now[1], undefined);
    const value = normRole(now[2] ?? '');
    const tense = /\bbecame\b/i.test(now[0]) ? 'past' : 'present';
    if (person) role(person, value, `${person} is now ${value}`, true, timeOf(now.index, matchEnd(now), tense));
  }
  const self = SELF_ROLE.exec(s.text);
  if (self) role(s.self, normRole(self[1] ?? self[2] ?? ''), `Became ${normRole(self[1] ?? self[2] ?? '')}`, true);
  const isMy = IS_MY.exec(masked);
  if (isMy) {
    const person = personOf(ctx, isMy[1], isMy[2], isMy.index);
    const word = (isMy[3] ?? '').toLowerCase();
    if (person && person !== s.self) {
      if (RELATION_NOUNS[word]) {
        // Relative to the user in their own chats ("sister"); between named speakers, whose ("Deborah's mother").
        const relation = s.self === SELF_NAME ? word : `${s.self}'s ${word}`;
        entities.push({ name: person, type: 'person', aliases: [], state: { relation }, episodeId: s.episodeId });
        const edge = relationEdge(word);
        if (edge === 'FAMILY_OF' || edge === 'MENTORS') rel(person, s.self, edge, { relation: word });
        else rel(s.self, person, edge, { relation: word });
      } else role(person, normRole(word), `${person} is now ${normRole(word)}`, true);
    }
  }
  const appositive = APPOSITIVE_AT.exec(masked);
  if (appositive) {
    const person = typed(mentionOf(s, appositive[1]), 'person');
    const org = typed(mentionOf(s, appositive[3]), 'organization');
    if (person && org) rel(person, org, 'WORKS_AT', { role: (appositive[2] ?? '').trim().toLowerCase() });
  }
  const runs = RUNS.exec(masked);
  if (runs) {
    const person = personOf(ctx, runs[1], runs[2], runs.index);
    const org = typed(mentionOf(s, runs[3]), 'organization');
    if (person && org) rel(person, org, 'WORKS_AT', { role: 'head' });
  }
  const isA = IS_A_AT.exec(masked);
  if (isA) {
    const person = personOf(ctx, isA[1], isA[2], isA.index);
    const what = (isA[3] ?? '').trim().toLowerCase();
    const org = typed(mentionOf(s, isA[4]), 'organization');
    if (person && person !== s.self) {
      entities.push({ name: person, type: 'person', aliases: [], state: { occupation: what }, episodeId: s.episodeId });
      if (org) rel(person, org, SCHOOL.test(what) ? 'STUDIES_AT' : 'WORKS_AT', { role: what });
    }
  }
  const started = STARTED_AT.exec(masked);
  if (started) {
    const person = personOf(ctx, started[1], started[2], started.index);
    const org = typed(mentionOf(s, started[4]), 'organization');
    const what = (started[3] ?? '').toLowerCase();
    if (person && org) {
      const when = timeOf(started.index, matchEnd(started), 'past');
      rel(person, org, SCHOOL.test(what) ? 'STUDIES_AT' : 'WORKS_AT', { role: what }, false, when);
      stateChanges.push({
        entityName: person,
        attribute: SCHOOL.test(what) ? 'school' : 'employer',
        newStateAspect: org,
        whatChanged: `Started ${what} at ${org}`,
        isContradiction: false,
        confidence: 0.8,
        episodeId: s.episodeId,
        ...(when ? { eventTime: when } : {}),
      });
    }
  }
  const resp = RESPONSIBILITY.exec(masked);
  if (resp) {
    const person = personOf(ctx, resp[1], resp[2], resp.index);
    const end = RESP_END.exec(resp[3] ?? '');
    const what = clip(unmask(s, (resp[3] ?? '').slice(0, end ? end.index : undefined)), 100);
    if (person && what.length > 2) {
      // The clause ends where what is taken over or handled does.
      const said = resp[3] ?? '';
      const clauseEnd = matchEnd(resp) - said.length + (end ? end.index : said.length);
      const tookOver = /\btook over\b/.test(resp[0].slice(0, resp[0].length - said.length));
      const when = timeOf(resp.index, clauseEnd, tookOver ? 'past' : 'present');
      stateChanges.push({
        entityName: person,
        attribute: 'responsibility',
        newStateAspect: what,
        whatChanged: `${person} ${/took over|taking over/.test(resp[0]) ? 'took over' : 'handles'} ${what}`,
        isContradiction: false,
        confidence: 0.75,
        episodeId: s.episodeId,
        ...(when ? { eventTime: when } : {}),
      });
    }
  }
  const left = LEFT.exec(masked);
  if (left) {
    const person = personOf(ctx, left[1], undefined);
    const target = typed(mentionOf(s, left[2]), 'project') ?? typed(mentionOf(s, left[2]), 'organization') ?? project;
    if (person) {
      // "is leaving" is still to come: the day it was said.
      const when = /\bis leaving\b/i.test(left[0]) ? undefined : timeOf(left.index, matchEnd(left), 'past');
      role(person, 'left', `${person} left${target ? ` ${target}` : ''}`, false, when);
      if (target) rel(person, target, 'WORKS_ON', {}, true, when);
    }
  }
  return { relationships, stateChanges, entities };
}
