/**
 * Actions (actor, verb, object) for plain subject–verb–object statements about named entities: "We launched
 * Tidepool", "Maya and I met Elena Park", "I emailed Prof. Okafor", "I joined Brightline Labs". Conservative on
 * purpose: the subject starts the sentence (after a short lead-in), the verb is from a fixed list, and the object is
 * a named entity right after the verb.
 */
import type { ActionFinding, Findings } from '../findings.js';
import { E, isHedged, isQuestion, mentionOf, textIndex, type PatternContext } from './context.js';
import { pastTimeOf } from './event-times.js';

const VERBS =
  'launched|shipped|released|built|founded|co-founded|started|joined|left|quit|met with|met|hired|called|emailed|texted|messaged|visited|contacted|interviewed|pitched|pivoted|showed it to|talked to|spoke with|spoke to|switched to|adopted|dropped|stopped using|started using|applied to|graduated from|signed with|partnered with|presented to|demoed (?:it )?to';
const LEAD = '(?:(?:so|and|also|today|yesterday|finally|then|update:?|big news:?|ok|okay)[,:]?\\s+)*';
const ACTION = new RegExp(
  `^\\W*${LEAD}(?:(I|[Ww]e)|${E}\\s+and\\s+I|${E})\\s+(?:just\\s+|finally\\s+|officially\\s+|also\\s+)?(${VERBS})\\s+(?:the\\s+|our\\s+|my\\s+)?${E}`,
  'i',
);
const OBJECT_TYPES = new Set(['person', 'organization', 'project', 'tool', 'place']);

export function findActions(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  if (isQuestion(s) || isHedged(s)) return {};
  const m = ACTION.exec(s.masked);
  if (!m) return {};
  const object = mentionOf(s, m[5]);
  if (!object || !OBJECT_TYPES.has(object.type)) return {};
  const verb = (m[4] ?? '').toLowerCase();
  const actors: string[] = [];
  if (m[1]) actors.push(s.self);
  const partner = mentionOf(s, m[2]);
  if (partner?.type === 'person') actors.push(partner.name, s.self);
  const subject = mentionOf(s, m[3]);
  if (subject?.type === 'person') actors.push(subject.name);
  // Every verb of the list is a past: a time of its own clause dates it ("Yesterday I dropped Rust"; event-times.ts).
  const eventTime = pastTimeOf(ctx, { start: 0, end: textIndex(s, m.index + m[0].length) })?.eventTime;
  const actions: ActionFinding[] = actors
    .filter((a) => a !== object.name)
    .map((actor) => ({
      actor,
      verb,
      object: object.name,
      episodeId: s.episodeId,
      ...(eventTime ? { eventTime } : {}),
    }));
  return { actions };
}
