import { matchKey } from '../../query/keywords.js';

/**
 * Matching LoCoMo's annotations to what an extractor put in the world (docs/evaluation.md "Extraction quality").
 *
 * Key words of a text: words of three letters or more, not in the stop list below (function words, auxiliaries,
 * pronouns, generic verbs and time words that every annotation uses) and not a speaker's name, compared by their
 * first five letters (so "painted", "painting" and "paints" are one key). A world record covers an annotation when
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

/** The distinct key words (match keys) of a text, leaving out the names given (speakers). */
export function keyWords(text: string, exclude: readonly string[] = []): string[] {
  const excluded = new Set(exclude.flatMap((n) => n.toLowerCase().split(/\s+/)).map(matchKey));
  const keys = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’']s\b/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && !STOP.has(w))
    .map(matchKey)
    .filter((k) => !excluded.has(k));
  return [...new Set(keys)];
}

/** How many of the keys a text has (its words compared by their first five letters). */
export function coveredKeys(keys: readonly string[], text: string): number {
  const present = new Set(
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .map(matchKey),
  );
  return keys.filter((k) => present.has(k)).length;
}

/** The rule above: enough of the annotation's key words. */
export function covers(keys: readonly string[], text: string): boolean {
  if (keys.length === 0) return false;
  const need = keys.length <= 2 ? keys.length : Math.max(2, Math.ceil(keys.length * 0.4));
  return coveredKeys(keys, text) >= need;
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
}

/** Is the record about this person: one of its entities is them (by name, alias or first name), or it names them? */
export function isAbout(record: WorldRecord, speaker: string): boolean {
  const name = speaker.toLowerCase();
  const first = name.split(/\s+/)[0] ?? name;
  if (record.about.some((a) => a === name || a === first || a.split(/\s+/)[0] === first)) return true;
  return new RegExp(`\\b${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(record.text);
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
}): WorldRecord | null {
  const keys = keyWords(input.text, input.names);
  return (
    input.records.find(
      (r) =>
        r.episodeId !== null && input.episodes.has(r.episodeId) && isAbout(r, input.speaker) && covers(keys, r.text),
    ) ?? null
  );
}

const WINDOW = 36 * 3_600_000;

/**
 * The first dated transition or relationship that records an annotated event: about the speaker, within a day of
 * the session's date (36 hours either side, for the hour of day and zones), covering the event's key words.
 */
export function findEvent(input: {
  text: string;
  speaker: string;
  names: readonly string[];
  date: number;
  records: readonly WorldRecord[];
}): WorldRecord | null {
  const keys = keyWords(input.text, input.names);
  return (
    input.records.find(
      (r) =>
        (r.kind === 'transition' || r.kind === 'relationship') &&
        r.time !== null &&
        Math.abs(r.time - input.date) <= WINDOW &&
        isAbout(r, input.speaker) &&
        covers(keys, r.text),
    ) ?? null
  );
}
