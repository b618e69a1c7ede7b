/**
 * What a pattern family sees for one sentence, and helpers to read masked sentences: each entity mention is
 * replaced by ⟦i⟧ so patterns can say "from ⟦A⟧ to ⟦B⟧" and check the types of A and B.
 */
import { NOT_AFTER_NAME_ABBREVIATION } from '../../../domain/abbreviations.js';
import type { AnalyzedSentence, Mention } from '../findings.js';
import type { SpanTagger } from '../nlp.js';
import type { Registry } from '../registry.js';

export interface PatternContext {
  s: AnalyzedSentence;
  /** Earlier sentences of the same turn, oldest first. */
  previous: AnalyzedSentence[];
  /** The texts of the turns just before this one in its episode (at most EARLIER_TURNS), oldest first. */
  earlier: readonly string[];
  registry: Registry;
  /** The project this sentence is most likely about: named in it, else earlier in the episode, else the only active one. */
  focusProject: string | null;
  /** The project named earlier in this episode (not the preamble's fallback), if any. */
  episodeProject: string | null;
  /** The last person named in this turn before this sentence (for "he"/"she"). */
  lastPerson: string | null;
  /** The last tool named in this turn before this sentence (for "it"). */
  lastTool: string | null;
  /** Title of the sentence's episode. */
  episodeTitle: string;
  /** The local day the sentence was written, YYYY-MM-DD. */
  day: string;
  /** The batch's time zone (relative times are resolved in it). */
  tz: string;
  /** Known belief statements (preamble and earlier in the batch). */
  knownBeliefs: string[];
  /** Known period names (preamble's current period, period entities, earlier in the batch). */
  knownPeriods: string[];
  /** compromise, for verbs and its lexicon; null: the families that need it find nothing with it. */
  tagger: SpanTagger | null;
}

/** How many turns before a sentence's own its patterns may read ("What are their names?" → "Luna and Oliver!"). */
export const EARLIER_TURNS = 2;

/** The speaker as subject or owner ("I", "we", "my", "our"); "me" and "us" alone are usually about the listener. */
export const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|my|we|we're|we've|we'd|our)\b/i;

/** Placeholder pattern for a mention in a masked sentence; captures its index. */
export const E = '⟦(\\d+)⟧';

/** A person as a clause's subject: a mention (group 1) or he/she (group 2), for personOf; "Nora's", "she is". */
export const WHO = `(?:${E}|\\b(He|She|he|she))(?:'s|\\s+is|\\s+has)?`;

export function mentionOf(s: AnalyzedSentence, index: string | undefined): Mention | undefined {
  return index === undefined ? undefined : s.mentions[Number(index)];
}

/** The person a match is about: its mention, or for he/she the last person named before it (sentence, then turn). */
export function personOf(
  ctx: PatternContext,
  index: string | undefined,
  pronoun: string | undefined,
  at = 0,
): string | null {
  if (pronoun) {
    const before = ctx.s.masked.slice(0, at);
    const indices = [...before.matchAll(/⟦(\d+)⟧/g)].map((m) => mentionOf(ctx.s, m[1]));
    const last = indices.filter((m) => m?.type === 'person').pop();
    return last?.name ?? ctx.lastPerson;
  }
  const m = mentionOf(ctx.s, index);
  return m?.type === 'person' ? m.name : null;
}

/** Replaces placeholders with canonical names. */
export function unmask(s: AnalyzedSentence, masked: string): string {
  return masked.replace(/⟦(\d+)⟧/g, (_m, i: string) => s.mentions[Number(i)]?.name ?? '');
}

/** Replaces placeholders with the words as written. */
export function unmaskSurface(s: AnalyzedSentence, masked: string): string {
  return masked.replace(/⟦(\d+)⟧/g, (_m, i: string) => s.mentions[Number(i)]?.surface ?? '');
}

/** Where a position of `s.masked` falls in `s.text` (a position inside a placeholder: the mention's start). */
export function textIndex(s: AnalyzedSentence, maskedIndex: number): number {
  let shift = 0;
  for (const [i, m] of s.mentions.entries()) {
    const at = m.start - shift;
    if (maskedIndex <= at) break;
    const placeholder = `⟦${i}⟧`.length;
    if (maskedIndex < at + placeholder) return m.start;
    shift += m.end - m.start - placeholder;
  }
  return maskedIndex + shift;
}

export function buildMasked(text: string, mentions: Mention[]): string {
  let out = '';
  let at = 0;
  mentions.forEach((m, i) => {
    out += `${text.slice(at, m.start)}⟦${i}⟧`;
    at = m.end;
  });
  return out + text.slice(at);
}

/** A question tag after a statement: "I started my own store not so long ago - pretty cool, huh?", "…, right?". */
const QUESTION_TAG =
  /(?:[,\-–—]\s*(?:pretty|so|really)?\s*\w*\s*,?\s*)(?:huh|right|eh|isn't it|wasn't it|don't you think|you know)\s*\?\s*["')]*\s*$/i;
/** A photo's caption after what was said ("… from those movies? [shares a photo: …]", LoCoMo): not the speaker's words. */
const TRAILING_CAPTION = /\s*\[[^\]]*\]\s*$/;

export function isQuestion(s: AnalyzedSentence): boolean {
  const said = s.text.replace(TRAILING_CAPTION, '');
  if (QUESTION_TAG.test(said) && FIRST_PERSON.test(s.text)) return false;
  return (
    /\?\s*["')]*\s*$/.test(said) || /^(?:should|could|would|can|do|does|is|are|will|which|what|how|why)\b/i.test(s.text)
  );
}

/** Hypotheticals and deliberation: "thinking about switching", "should we move to", "maybe use". */
export function isHedged(s: AnalyzedSentence): boolean {
  return /\b(?:thinking (?:of|about)|considering|consider|should (?:I|we)|might|maybe|perhaps|wondering|not sure|whether|if (?:I|we)|would it|could (?:I|we)|planning to|plan to|want to|wants to|wanted to|trying to decide|leaning (?:towards?|to)|or should)\b/i.test(
    s.text,
  );
}

/** Names of the mentions of a type, in order. */
export function mentionsOfType(s: AnalyzedSentence, type: string): Mention[] {
  return s.mentions.filter((m) => m.type === type);
}

/** Sentence subject is the speaker or their team ("I", "we", "Maya and I"). */
export function firstPersonSubject(text: string): boolean {
  return /^(?:\W*)(?:so |and |but |also |update: |ok,? |okay,? )?(?:I|we|[A-Z][a-z]+ and I)\b/i.test(text);
}

/**
 * Where an event's object ends: a new clause, a reason, a time phrase that was already read; a comma or point inside
 * a number ("$6,800", "2.5 miles") or an abbreviation's ("St. Mary's") is no end.
 */
export const CLAUSE_END = new RegExp(
  String.raw`\s*(?:[;:!?()]|,(?!\d)|${NOT_AFTER_NAME_ABBREVIATION}\.(?!\d)|\s-\s|\s(?:in (?:the )?hopes? of|in order to|hoping to)\s|\s(?:and|but|because|since|so|which|who|when|while|as|although|though|until|before|after)\s(?:it|i|we|they|he|she|that|this|there|my|our|the)\b|\s(?:because|since|so that|although|even though|even if)\b)`,
  'i',
);
/** An object that stops before what it is about ("went to", "planning a few", "got from"): no event. */
export const OPEN_END =
  /\b(?:to|from|with|for|at|in|of|about|into|on|by|a|an|the|my|our|your|few|some|many|more|couple)$/i;
