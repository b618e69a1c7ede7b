/**
 * The speaker's people, beside the sentence's event (never instead of it: analyze.ts runs this after the loose events):
 * where they live ("My brother Dan lives in Chicago", "He lives in Chicago now", "My sister Nora moved to Denver"),
 * and the speaker's family and partners changing: a child born ("We just had a baby girl named Lily", "we welcomed our
 * son Noah"), an engagement or a marriage ("I got engaged to Chris", "Chris and I got married in June"), a breakup
 * ("I broke up with my girlfriend Sarah", "Sarah and I split up"), which ends the relationship the speaker had named
 * ("my girlfriend Sarah": KNOWS {relation: girlfriend}), so the world no longer calls her his girlfriend.
 */
import type { Findings, RelationshipFinding, StateChangeFinding } from '../findings.js';
import { relationEdge } from '../lexicon.js';
import {
  E,
  FIRST_PERSON,
  isHedged,
  isQuestion,
  mentionOf,
  personOf,
  textIndex,
  WHO,
  type PatternContext,
} from './context.js';
import { pastTimeOf } from './event-times.js';

const SPEAKERS = `(?:\\b(?:I|[Ww]e)|${E}\\s+and\\s+I)`;
const BORN = new RegExp(
  `\\b(?:I|[Ww]e)(?:'ve|\\s+have)?\\s+(?:just\\s+|finally\\s+|recently\\s+)?(?:had|welcomed)\\s+(?:a|our)\\s+(?:new\\s+|beautiful\\s+|healthy\\s+|little\\s+)*(?:baby\\s+)?(girl|boy|son|daughter|baby)\\b(?:\\s*,?\\s+(?:named|called)\\s+|\\s*,?\\s+)(?:${E}|([A-Z][a-z]+)\\b)`,
);
const JOINED = new RegExp(
  `${SPEAKERS}\\s+(?:just\\s+|finally\\s+|officially\\s+|recently\\s+)?(?:got\\s+|are\\s+|am\\s+|'m\\s+|'re\\s+)?(engaged|married)(?:(?:\\s+to)?\\s+${E})?`,
);
const SPLIT = new RegExp(
  `${SPEAKERS}\\s+(?:just\\s+|finally\\s+|officially\\s+|recently\\s+)?(?:broke up|split up|separated|got divorced|divorced)(?:\\s+with)?(?:\\s+my\\s+(?:ex-?)?(girlfriend|boyfriend|partner|fiancee|fiance|wife|husband),?)?(?:\\s+${E})?`,
);

/**
 * Where someone else lives: "My brother Dan lives in Chicago", "He lives in Chicago now", "My sister Nora moved to
 * Denver last year" (not "is moving to": a plan).
 */
const OTHER_LIVES = new RegExp(
  `${WHO}\\s+(?:still\\s+|now\\s+|currently\\s+|just\\s+|recently\\s+|finally\\s+)?(?:lives|is living|is based|has lived|moved|has moved|relocated|has relocated)\\s+(?:back\\s+)?(?:[a-z-]+\\s+){0,3}?(?:in|to)\\s+(?:the\\s+)?${E}`,
);
const CHILD: Record<string, string> = { girl: 'daughter', daughter: 'daughter', boy: 'son', son: 'son', baby: 'child' };

export function findKin(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  if (isQuestion(s) || isHedged(s)) return {};
  const relationships: RelationshipFinding[] = [];
  const entities: Findings['entities'] = [];
  const stateChanges: StateChangeFinding[] = [];
  const person = (index: string | undefined): string | null => {
    const m = mentionOf(s, index);
    return m?.type === 'person' && m.name !== s.self ? m.name : null;
  };
  const when = (m: RegExpExecArray, ongoing = false): string | undefined =>
    pastTimeOf(ctx, { start: textIndex(s, m.index), end: textIndex(s, m.index + m[0].length), ongoing })?.eventTime;
  /** The speaker's relation to someone, with the direction relationEdge gives it (family points at the speaker). */
  const relation = (other: string, word: string, m: RegExpExecArray, ended: boolean): void => {
    const type = relationEdge(word);
    const towardSelf = type === 'FAMILY_OF' || type === 'MENTORS';
    const eventTime = when(m);
    relationships.push({
      source: towardSelf ? other : s.self,
      target: towardSelf ? s.self : other,
      type,
      properties: { relation: word },
      ended,
      confidence: 0.8,
      episodeId: s.episodeId,
      ...(eventTime ? { eventTime } : {}),
    });
  };
  const born = BORN.exec(s.masked);
  // A name no mention marked ("a baby girl named Lily": a name new to the batch) is the child's unless the batch knows
  // it as something else.
  const unmarked = born?.[3];
  const fresh = unmarked && (ctx.registry.get(unmarked)?.type ?? 'person') === 'person' ? unmarked : null;
  const child = person(born?.[2]) ?? fresh;
  if (born && child) {
    const word = CHILD[born[1] ?? 'baby'] ?? 'child';
    if (child === fresh) entities.push({ name: child, type: 'person', aliases: [], state: {}, episodeId: s.episodeId });
    relation(child, word, born, false);
  }
  const joined = JOINED.exec(s.masked);
  const partner = person(joined?.[1]) ?? person(joined?.[3]);
  if (joined && partner) relation(partner, joined[2] === 'engaged' ? 'fiance' : 'spouse', joined, false);
  const split = SPLIT.exec(s.masked);
  const former = person(split?.[1]) ?? person(split?.[3]);
  if (split && former) {
    // The relation the speaker gave this person, said here ("my girlfriend Sarah") or known from before.
    const known = ctx.registry.get(former)?.state.relation;
    const word = split[2] ?? (typeof known === 'string' ? known.replace(/^.*'s\s+/, '') : 'partner');
    relation(former, word, split, true);
    const was = typeof known === 'string' && known.endsWith(word) ? known : word;
    const eventTime = when(split);
    stateChanges.push({
      entityName: former,
      attribute: 'relation',
      oldStateAspect: was,
      newStateAspect: was.replace(new RegExp(`${word}$`), `ex-${word}`),
      whatChanged: `Broke up with ${s.self}`,
      isContradiction: false,
      confidence: 0.75,
      episodeId: s.episodeId,
      ...(eventTime ? { eventTime } : {}),
    });
  }
  const lives = OTHER_LIVES.exec(s.masked);
  const who = lives ? personOf(ctx, lives[1], lives[2], lives.index) : null;
  const home = mentionOf(s, lives?.[3]);
  // Someone of the speaker's world: said beside the speaker ("I talked to Dan. He lives …") or known by a relation;
  // not a figure a text is about ("To avoid arrest, Rousseau moved to England").
  const beside = [s, ctx.previous.at(-1)].some((x) => x !== undefined && FIRST_PERSON.test(x.text));
  const theirs = beside || (who !== null && typeof ctx.registry.get(who)?.state.relation === 'string');
  if (lives && who && who !== s.self && theirs && home?.type === 'place') {
    const eventTime = when(lives, /\b(?:lives|living|based)\b/.test(lives[0]));
    relationships.push({
      source: who,
      target: home.name,
      type: 'LIVES_IN',
      properties: {},
      ended: false,
      confidence: 0.75,
      episodeId: s.episodeId,
      ...(eventTime ? { eventTime } : {}),
    });
  }
  return { relationships, entities, stateChanges };
}
