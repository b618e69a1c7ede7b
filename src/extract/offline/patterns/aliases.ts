/**
 * Aliases the text defines: "University of Maryland (UMD)", "UMD (University of Maryland)", "Tidepool, or TP for
 * short", "Brightline Labs (aka Brightline)"; and acronyms used beside a name in the same conversation ("We launched
 * Tidepool … TP is live") when the acronym's letters spell the name and only one name fits.
 */
import type { Sentence } from '../findings.js';
import { isAnyGazetteerForm } from '../gazetteer.js';
import { NOT_A_NAME } from '../lexicon.js';
import { cleanName, isPlausibleName, nameRun } from '../names.js';

export interface AliasFinding {
  name: string;
  alias: string;
  episodeId: string;
}

const ALIAS = '[A-Z][A-Za-z0-9&.]{1,9}';
const NAME_THEN_ALIAS = new RegExp(
  `(${nameRun(6)})\\s*\\(\\s*(?:aka\\s+|a\\.k\\.a\\.\\s+|or\\s+|"?)(${ALIAS})"?\\s*\\)`,
  'gu',
);
const ACRONYM_THEN_NAME = new RegExp(`\\b([A-Z]{2,6})\\s*\\(\\s*(${nameRun(6)})\\s*\\)`, 'gu');
const FOR_SHORT = new RegExp(
  `(${nameRun(6)}),?\\s+(?:or|aka|a\\.k\\.a\\.|also known as)\\s+"?(${ALIAS})"?(?:\\s+for\\s+short)?\\b`,
  'gu',
);
const STOP = new Set(['of', 'for', 'and', 'the', 'de', 'la', '&', 'at', 'in', 'on']);

/** True when `acronym`'s letters spell `name`: its initials, or (one word) an in-order subsequence. */
export function spells(acronym: string, name: string): boolean {
  const a = acronym.toLowerCase().replace(/[^a-z0-9]/g, '');
  const words = name
    .toLowerCase()
    .split(/[\s-]+/)
    .filter((w) => w.length > 0);
  if (a.length < 2 || words.length === 0) return false;
  const initials = words.filter((w) => !STOP.has(w)).map((w) => w[0]);
  const fullInitials = words.map((w) => w[0]);
  if (a === initials.join('') || a === fullInitials.join('')) return true;
  const flat = words.join(' ');
  if (flat[0] !== a[0]) return false;
  let i = 0;
  for (const ch of flat) if (ch === a[i]) i++;
  return i === a.length && (words.length === 1 || a.length >= words.length);
}

function isAcronym(text: string): boolean {
  return /^[A-Z][A-Z0-9&.]{1,5}$/.test(text);
}

/** Alias definitions in one sentence. */
export function findAliasDefinitions(sentence: Sentence): AliasFinding[] {
  const out: AliasFinding[] = [];
  const push = (rawName: string, alias: string, explicit: boolean): void => {
    const name = cleanName(rawName);
    if (!isPlausibleName(name, { allowGazetteer: true }) || name === alias) return;
    const ok = explicit || (isAcronym(alias) ? spells(alias, name) : name.split(/\s+/).includes(alias));
    if (ok) out.push({ name, alias, episodeId: sentence.episodeId });
  };
  for (const m of sentence.text.matchAll(NAME_THEN_ALIAS)) push(m[1] ?? '', m[2] ?? '', false);
  for (const m of sentence.text.matchAll(ACRONYM_THEN_NAME)) {
    const name = m[2] ?? '';
    if (name.split(/\s+/).length > 1 && spells(m[1] ?? '', name)) push(name, m[1] ?? '', true);
  }
  for (const m of sentence.text.matchAll(FOR_SHORT)) {
    if (/for\s+short/.test(m[0]) || /aka|a\.k\.a|also known as/.test(m[0])) push(m[1] ?? '', m[2] ?? '', true);
  }
  return out;
}

/** What a sentence may open with before a speaker names themselves: "Hi,", "Hmm, I think", "you can". */
const SELF_NAMING_OPENING =
  /^(?:(?:hi|hello|hey|hmm+|well|oh|ok|okay|so)[,!.]*\s+)*(?:i think\s+)?(?:you can\s+|you may\s+|please\s+|just\s+)?$/i;
const SELF_NAMING = /\b(?:[Cc]all me|[Mm]y name is)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\b/u;

/**
 * The name a speaker gives themselves when the sentence opens with it ("Hmm, I think you can call me Lulu" said by
 * MemoryBank's Luna; "Hi, my name is Lulu"): an alias of the speaker, not another person. None when it is their name.
 */
export function selfAliasOf(sentence: Sentence): AliasFinding | null {
  const m = SELF_NAMING.exec(sentence.text);
  const alias = m?.[1];
  if (!m || !alias || !SELF_NAMING_OPENING.test(sentence.text.slice(0, m.index))) return null;
  // isPlausibleName refuses a day, a common word or a known place ("Call me Monday").
  if (alias.toLowerCase() === sentence.self.toLowerCase() || !isPlausibleName(alias)) return null;
  return { name: sentence.self, alias, episodeId: sentence.episodeId };
}

/** A turn that asks for writing or play, whose "my name is …" may be the text to write, not the speaker's own. */
const WRITING_OR_PLAY =
  /\b(?:write|rewrite|draft|proofread|polish|edit|improve|translate|correct|reword|pretend|role-?play|act as|imagine|story|letter|e-?mail|message|bio|profile|introduction|intro|speech|script|template|essay|character|scene|dialogue)\b/i;

/**
 * The name an unnamed user gives themselves ("Call me Sam", "Hi, my name is Sam Lee"): as for a named speaker, at
 * the start of a sentence, and only in one of the first two sentences of a turn that asks for no writing or play
 * ("Proofread this: Hi, my name is …" is a draft, "Pretend you're a pirate and call me Jack" a game).
 */
export function anonymousSelfAliasOf(sentence: Sentence, turn: readonly Sentence[]): AliasFinding | null {
  const place = turn.findIndex((x) => x.index === sentence.index);
  if (place < 0 || place > 1 || turn.some((x) => WRITING_OR_PLAY.test(x.text))) return null;
  return selfAliasOf(sentence);
}

/**
 * Acronyms written beside a project or organization name in the same conversation, when the acronym spells exactly
 * one of the names mentioned there and is not a known word or tool.
 */
export function inferAcronymAliases(input: {
  sentences: Sentence[];
  names: { name: string; type: string }[];
  isKnownForm: (text: string) => boolean;
}): AliasFinding[] {
  const byEpisode = new Map<string, Sentence[]>();
  for (const s of input.sentences) byEpisode.set(s.episodeId, [...(byEpisode.get(s.episodeId) ?? []), s]);
  const out: AliasFinding[] = [];
  for (const [episodeId, sentences] of byEpisode) {
    const text = sentences.map((s) => s.text).join(' ');
    const lower = text.toLowerCase();
    const acronyms = new Set<string>();
    for (const m of text.matchAll(/\b([A-Z]{2,5})\b(?!\s*\d)/g)) {
      const a = m[1] ?? '';
      if (NOT_A_NAME.has(a.toLowerCase()) || isAnyGazetteerForm(a) || input.isKnownForm(a)) continue;
      acronyms.add(a);
    }
    for (const acronym of acronyms) {
      const fits = input.names.filter(
        (n) =>
          (n.type === 'project' || n.type === 'organization') &&
          lower.includes(n.name.toLowerCase()) &&
          spells(acronym, n.name),
      );
      const only = fits[0];
      if (fits.length === 1 && only) out.push({ name: only.name, alias: acronym, episodeId });
    }
  }
  return out;
}
