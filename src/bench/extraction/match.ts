import { escapeRegExp } from '../../domain/text-match.js';
import { matchKey } from '../../query/keywords.js';

/**
 * Matching LoCoMo's annotations to what an extractor put in the world (docs/evaluation.md "Extraction quality").
 *
 * Key words of a text: words of three letters or more, not in the stop list below (function words, auxiliaries,
 * pronouns, generic verbs and time words that every annotation uses) and not a speaker's name, in their dictionary
 * form (compromise's roots: "took" → "take", "museums" → "museum") and compared by their first five letters (so
 * "painted", "painting" and "paints" are one key). A world record covers an annotation when
 * it has at least 40 % of the annotation's key words and at least two of them (all of them when it has one or two).
 */
const STOP = new Set(
  (
    'the and for are was were has have had her his him she they them their this that these those with from into ' +
    'about after before over under than then there here what when where which while who whom why how not but also ' +
    'just very really much many more most some any all each every other such own same can could would should will ' +
    "shall may might must does did doing done being been its it’s it's our ours your yours you i’m i'm me my mine " +
    'one ones two both feel feels felt find finds found make makes made get gets got getting going goes went come ' +
    'comes came take takes took give gives gave keep keeps kept seem seems lot lots thing things way ways time times ' +
    'day days week weeks month months year years recently recent currently current today yesterday tomorrow last ' +
    'next ago now new still always never often sometimes something anything everything someone anyone everyone ' +
    'like likes liked love loves loved enjoy enjoys enjoyed want wants wanted'
  ).split(' '),
);

/**
 * Words to their dictionary form ("took" → "take", "museums" → "museum"); the bench loads compromise's for this
 * (loadLemmatizer), tests may pass their own. Identity when none is given.
 */
export type Lemmatizer = (words: readonly string[]) => string[];
const identity: Lemmatizer = (w) => [...w];

function wordsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’']s\b/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The distinct key words (match keys) of a text, leaving out the names given (speakers). */
export function keyWords(text: string, exclude: readonly string[] = [], lemmatize: Lemmatizer = identity): string[] {
  const excluded = new Set(exclude.flatMap((n) => n.toLowerCase().split(/\s+/)).map(matchKey));
  const words = wordsOf(text).filter((w) => w.length >= 3 && !STOP.has(w));
  const keys = lemmatize(words)
    .filter((w) => !STOP.has(w))
    .map(matchKey)
    .filter((k) => k.length >= 3 && !excluded.has(k));
  return [...new Set(keys)];
}

/** Every match key of a text (all its words, lemmatized), for covers(). */
export function textKeys(text: string, lemmatize: Lemmatizer = identity): Set<string> {
  const words = wordsOf(text);
  return new Set([...words, ...lemmatize(words)].map(matchKey));
}

/** The rule above: enough of the annotation's key words among a record's keys. */
export function covers(keys: readonly string[], present: ReadonlySet<string>): boolean {
  if (keys.length === 0) return false;
  const need = keys.length <= 2 ? keys.length : Math.max(2, Math.ceil(keys.length * 0.4));
  return keys.filter((k) => present.has(k)).length >= need;
}

/** compromise's dictionary forms, loaded on first use (its lexicon is built on import). */
export async function loadLemmatizer(): Promise<Lemmatizer> {
  const { default: nlp } = await import('compromise');
  return (words) => {
    if (words.length === 0) return [];
    const doc = nlp(words.join(' '));
    doc.compute('root');
    const terms = (doc.json() as { terms?: { root?: string; normal?: string; text?: string }[] }[]).flatMap(
      (s) => s.terms ?? [],
    );
    return terms.map((t) => (t.root ?? t.normal ?? t.text ?? '').toLowerCase()).filter(Boolean);
  };
}

/** Something the extractor recorded, flattened for matching. */
export interface WorldRecord {
  kind: 'transition' | 'relationship' | 'observation' | 'entity';
  /** The episode it was extracted from (its provenance). */
  episodeId: string | null;
  /** Event time: the transition's, the relationship's start, the observation's; null for an entity. */
  time: number | null;
  /** Lower-case names (and aliases) of the entities it is about. */
  about: string[];
  /** Everything it says in words: entity names, summary, state values, relationship type and properties. */
  text: string;
  /** The match keys of `text` (textKeys), computed once. */
  keys?: ReadonlySet<string>;
}

const keysOf = (r: WorldRecord, lemmatize: Lemmatizer): ReadonlySet<string> => (r.keys ??= textKeys(r.text, lemmatize));

/** Is the record about this person: one of its entities is them (by name, alias or first name), or it names them? */
export function isAbout(record: WorldRecord, speaker: string): boolean {
  const name = speaker.toLowerCase();
  const first = name.split(/\s+/)[0] ?? name;
  if (record.about.some((a) => a === name || a === first || a.split(/\s+/)[0] === first)) return true;
  return new RegExp(`\\b${escapeRegExp(first)}\\b`, 'i').test(record.text);
}

/**
 * The first record that holds an annotated fact: extracted from one of the evidence turns' sessions, about the
 * speaker, covering the fact's key words. Null when none does.
 */
export function findFact(input: {
  text: string;
  speaker: string;
  names: readonly string[];
  episodes: ReadonlySet<string>;
  records: readonly WorldRecord[];
  lemmatize?: Lemmatizer;
}): WorldRecord | null {
  const lemmatize = input.lemmatize ?? identity;
  const keys = keyWords(input.text, input.names, lemmatize);
  return (
    input.records.find(
      (r) =>
        r.episodeId !== null &&
        input.episodes.has(r.episodeId) &&
        isAbout(r, input.speaker) &&
        covers(keys, keysOf(r, lemmatize)),
    ) ?? null
  );
}

const WINDOW = 36 * 3_600_000;

/**
 * The first dated transition or relationship that records an annotated event: about the speaker, dated from the
 * session before (`since`, when there is one) to the session's date, with 36 hours' slack either end (the hour of
 * day and zones), covering the event's key words. An event told "last Tuesday" is dated that Tuesday, not the day it
 * was told; LoCoMo files it under the session that told it.
 */
export function findEvent(input: {
  text: string;
  speaker: string;
  names: readonly string[];
  date: number;
  since?: number | null;
  records: readonly WorldRecord[];
  lemmatize?: Lemmatizer;
}): WorldRecord | null {
  const lemmatize = input.lemmatize ?? identity;
  const keys = keyWords(input.text, input.names, lemmatize);
  return (
    input.records.find(
      (r) =>
        (r.kind === 'transition' || r.kind === 'relationship') &&
        r.time !== null &&
        r.time >= Math.min(input.since ?? input.date, input.date) - WINDOW &&
        r.time <= input.date + WINDOW &&
        isAbout(r, input.speaker) &&
        covers(keys, keysOf(r, lemmatize)),
    ) ?? null
  );
}
