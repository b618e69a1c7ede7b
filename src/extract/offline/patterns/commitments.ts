/**
 * Commitments with a date: "I promised Maya I'd have the onboarding flow done by January 20", "I told him I'd send
 * the report by Friday", "I need to finish X by Monday", "I'll ship X by March 3", "the deadline for X is
 * November 1", "X is due Friday". Without a date they are not commitments here (too vague to track).
 */
import type { EntityFinding, Findings, RelationshipFinding } from '../findings.js';
import { findStatedDate } from '../dates.js';
import { clip, cutClause, lowerFirst } from '../names.js';
import { isQuestion, mentionOf, unmask, type PatternContext } from './context.js';

const PROMISED =
  /\bI\s+(?:promised|told|assured|committed to|owe)\s+(⟦\d+⟧|him|her|them|my\s+\w+)\s+(?:that\s+)?(?:I'd|I would|I'll|I will|to)\s+(.+?)\s+by\s+(.+)$/i;
const PROMISED_TO = /\bI\s+(?:promised|committed|agreed|need|have|got|must)\s+to\s+(.+?)\s+by\s+(.+)$/i;
const WILL_BY = /\bI(?:'ll| will| am going to|'m going to)\s+(.+?)\s+by\s+(.+)$/i;
const DEADLINE = /\b(?:the|my|our)?\s*deadline\s+(?:for\s+(.+?)\s+)?is\s+(.+)$/i;
const DUE = /^\W*(?:the\s+|my\s+|our\s+)?(.{3,60}?)\s+is\s+due\s+(?:on\s+|by\s+)?(.+)$/i;
const END =
  /\s*(?:[;!?]|\.(?:\s|$)|,\s+(?:but|so|and|which)\b|\s+so\s+(?:that\s+)?(?:she|he|they|we|I)\b|\s+(?:because|since)\s+)/i;

export function findCommitments(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  if (isQuestion(s)) return {};
  const masked = s.masked;
  let task: string | null = null;
  let dateText: string | null = null;
  let to: string | null = null;
  let confidence = 0.8;
  const promised = PROMISED.exec(masked);
  if (promised) {
    const who = /^⟦(\d+)⟧$/.exec(promised[1] ?? '');
    const person = who ? mentionOf(s, who[1]) : undefined;
    to = person?.type === 'person' ? person.name : /him|her/i.test(promised[1] ?? '') ? ctx.lastPerson : null;
    task = promised[2] ?? null;
    dateText = promised[3] ?? null;
  } else {
    const m = PROMISED_TO.exec(masked) ?? WILL_BY.exec(masked);
    const deadline = m ? null : DEADLINE.exec(masked);
    const due = m || deadline ? null : DUE.exec(masked);
    if (m) {
      task = m[1] ?? null;
      dateText = m[2] ?? null;
      confidence = 0.7;
    } else if (deadline) {
      task = deadline[1] ? `${deadline[1]} deadline` : 'deadline';
      dateText = deadline[2] ?? null;
      confidence = 0.6;
    } else if (due) {
      task = `${due[1] ?? ''} due`;
      dateText = due[2] ?? null;
      confidence = 0.65;
    }
  }
  if (!task || !dateText) return {};
  const head = cutClause(dateText, END);
  const date = findStatedDate(head, ctx.day, 'future');
  if (!date || head.indexOf(date.text) > 12) return {};
  let name = unmask(s, task)
    .replace(/\b(?:him|her)\b/gi, (w) => (to ? to : w))
    .trim();
  if (/^deadline$/.test(name)) name = `${ctx.episodeTitle} deadline`;
  name = clip(lowerFirst(name), 120);
  if (name.split(/\s+/).length > 16 || name.length < 3) return {};
  const state: Record<string, string> = { due: date.ymd, status: 'open' };
  if (to) state.to = to;
  const entity: EntityFinding = { name, type: 'commitment', aliases: [], state, episodeId: s.episodeId };
  const relationships: RelationshipFinding[] = to
    ? [
        {
          source: name,
          target: to,
          type: 'PROMISED_TO',
          properties: {},
          ended: false,
          confidence,
          episodeId: s.episodeId,
        },
      ]
    : [];
  return { entities: [entity], relationships };
}
