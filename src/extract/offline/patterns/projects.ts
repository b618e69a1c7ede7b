/**
 * Projects the user builds: "I'm building Tidepool, an app that …", "I'm working on X", "my side project X",
 * "our startup X", "an app called X". A project name must look like a name (capitalized words, a quoted name, a
 * domain-like name) and not be a known tool, person or place, and must end the noun phrase ("I'm building Lego sets"
 * is not a project called Lego).
 */
import type { EntityFinding, Sentence } from '../findings.js';
import type { Registry } from '../registry.js';
import { PROJECT_NOUNS } from '../lexicon.js';
import { clip, cleanName, isPlausibleName, nameRun } from '../names.js';

const NAME = `"[^"]{2,40}"|${nameRun(4)}|[a-z][a-z0-9-]+\\.(?:ai|io|app|com|dev|tech|xyz|so|co|org)\\b`;
const NOUNS = [...PROJECT_NOUNS].sort((a, b) => b.length - a.length).join('|');

const BUILDING = new RegExp(
  `\\b(?:I'm|I am|I've been|I have been|[Ww]e're|[Ww]e are|[Ww]e've been|[Ww]e have been|I was|[Ww]e were|I'll be|I will be)\\s+(?:currently\\s+|now\\s+|still\\s+|also\\s+|actively\\s+)?(building|working on|developing|creating|prototyping|coding)\\s+(?:a\\s+new\\s+(?:${NOUNS})\\s+called\\s+)?(${NAME})`,
  'gu',
);
const FOUNDED = new RegExp(
  `\\b(?:I|[Ww]e|[A-Z][a-z]+ and I)\\s+(?:just\\s+|recently\\s+|finally\\s+)?(started|founded|co-founded|cofounded|launched|built|created)\\s+(${NAME})`,
  'gu',
);
const MY_PROJECT = new RegExp(
  `\\b(?:[Mm]y|[Oo]ur)\\s+(?:(?:new|side|little|own|current|main|first)\\s+)?(${NOUNS})\\s*,?\\s+(${NAME})`,
  'gu',
);
const CALLED = new RegExp(
  `\\b(?:a|an|my|our)\\s+(?:new\\s+|little\\s+|side\\s+)?(?:${NOUNS})\\s+(?:called|named)\\s+(${NAME})`,
  'gu',
);
const DESCRIPTION = new RegExp(
  `^\\s*(?:\\([^)]*\\)\\s*)?,\\s+((?:a|an|the|my|our)\\s+(?:[\\w-]+\\s+){0,4}?(?:${NOUNS})\\b[^.;!?]*)`,
  'u',
);
/** Words that may follow a project name without making it part of a longer noun phrase. */
const FOLLOWERS =
  /^(?:$|[,.;:!?)(—-]|'s\b|(?:with|for|at|in|on|and|to|which|that|as|because|since|now|this|next|right|today|yet|again|full-time|part-time|is|was|has|had|will|would|so|but|from|over|after|before|while|until|by|into|these|last|every|alone|too|anymore|called|where|who|lately|recently)\b)/i;

function stageFor(verb: string, text: string): string {
  if (/\bidea\b/i.test(text)) return 'idea';
  const v = verb.toLowerCase();
  if (v === 'launched') return 'launched';
  if (v === 'prototyping') return 'prototype';
  return 'building';
}

function acceptName(raw: string, after: string, registry: Registry, strict: boolean): string | null {
  const quoted = raw.startsWith('"');
  const name = quoted ? raw.slice(1, -1).trim() : cleanName(raw);
  if (!quoted && strict && !FOLLOWERS.test(after.trimStart())) return null;
  if (!quoted && !/^[a-z0-9-]+\.[a-z]+$/.test(name) && !isPlausibleName(name)) return null;
  if (/^[A-Z]{2,5}\s?\d{3}/.test(name)) return null;
  const known = registry.get(name);
  if (known && known.type !== 'project') return null;
  return known?.name ?? name;
}

/** Projects named in one sentence, with the state the sentence gives them. */
export function findProjects(sentence: Sentence, registry: Registry): EntityFinding[] {
  const out: EntityFinding[] = [];
  const text = sentence.text;
  const idea = /\bidea\b/i.test(text) ? 'idea' : null;
  const push = (raw: string, end: number, stage: string | null, nounHint: string | null, strict = true): void => {
    const after = text.slice(end);
    const name = acceptName(raw, after, registry, strict);
    if (!name) return;
    const state: Record<string, string> = {};
    if (stage) state.stage = stage;
    const desc = DESCRIPTION.exec(after);
    if (desc?.[1]) state.description = clip(desc[1].replace(/\s+(?:so|and then|but)\s+.*$/i, ''), 160);
    else if (nounHint) state.kind = nounHint;
    out.push({ name, type: 'project', aliases: [], state, episodeId: sentence.episodeId });
  };
  for (const m of text.matchAll(BUILDING)) push(m[2] ?? '', m.index + m[0].length, stageFor(m[1] ?? '', text), null);
  for (const m of text.matchAll(FOUNDED)) {
    // A quoted title after "started" is a book or a show, not a project.
    if (!(m[2] ?? '').startsWith('"')) push(m[2] ?? '', m.index + m[0].length, stageFor(m[1] ?? '', text), null);
  }
  for (const m of text.matchAll(MY_PROJECT)) push(m[2] ?? '', m.index + m[0].length, idea, m[1] ?? null, false);
  for (const m of text.matchAll(CALLED)) push(m[1] ?? '', m.index + m[0].length, idea, null, false);
  return out;
}
