/**
 * The speaker's pets (docs/offline-extractor.md "Personal events and observations"): "my dog Max", "a puppy named
 * Coco", "Max, my dog", "I adopted a pup … I named it Ned", and names given after the talk turned to animals ("What
 * are their names?" — "Luna and Oliver!") → a pet entity with its species, which the speaker OWNS.
 */
import { eventTimeOf } from '../dates.js';
import type { EntityFinding, RelationshipFinding } from '../findings.js';
import type { PatternContext } from './context.js';
import { relativeTimes } from './event-times.js';

/** Animals kept as pets (the species of a pet entity). */
export const ANIMALS =
  /\b(dog|puppy|pup|cat|kitten|kitty|bunny|rabbit|hamster|parrot|bird|turtle|tortoise|horse|pony|guinea pig|fish|snake|lizard|gecko|ferret)s?\b/i;
/** "her name is Shadow", "their names are Luna and Oliver". */
const NAME_IS =
  /\b(?:[Hh]is|[Hh]er|[Ii]ts|[Tt]heir)\s+names?(?:\s+(?:is|are)|['’]s)\s+([A-Z][a-z]+)(?:\s+and\s+([A-Z][a-z]+))?\b/;
/** A reply that is only names: "Luna and Oliver!", "Max." */
const ONLY_NAMES = /^\s*([A-Z][a-z]+)(?:\s*(?:,|and|&)\s*([A-Z][a-z]+))?\s*[!.]*\s*$/;
/** The question such a reply answers. */
const ASKS_NAMES = /\bwhat(?:'s|\s+is|\s+are|\s+were|\s+was)\s+(?:their|his|her|its)\s+names?\b/i;

/** "my dog Max", "our cat Luna", "a puppy named Coco", "Max, my dog" → a pet the speaker owns. */
export function petsOf(ctx: PatternContext): { entity: EntityFinding; owns: RelationshipFinding }[] {
  const { s } = ctx;
  const text = s.text;
  const animal = `(${ANIMALS.source.slice(3, -5)})`;
  const name = '([A-Z][a-z]+(?: [A-Z][a-z]+)?)';
  const patterns = [
    new RegExp(
      `\\b(?:[Mm]y|[Oo]ur)\\s+(?:new\\s+|little\\s+|sweet\\s+|old\\s+)?${animal}s?,?\\s+(?:named\\s+|called\\s+)?${name}`,
      'g',
    ),
    new RegExp(
      `\\b(?:[Aa]n?|[Tt]he|[Aa]nother)\\s+(?:new\\s+|little\\s+)?${animal}\\s+(?:named|called)\\s+${name}`,
      'g',
    ),
    new RegExp(`\\b${name},\\s+(?:[Mm]y|[Oo]ur)\\s+(?:new\\s+|little\\s+)?${animal}\\b`, 'g'),
    // "I adopted a puppy, a beagle called Biscuit": a breed named in a sentence about an animal.
    ...(ANIMALS.test(text) ? [new RegExp(`\\b(?:[Aa]n?)\\s+([a-z]+)\\s+(?:named|called)\\s+${name}`, 'g')] : []),
  ];
  const namedIt = new RegExp(`\\b(?:[Ii]|[Ww]e)\\s+(?:named|called)\\s+(?:it|him|her)\\s+${name}`, 'g');
  const out: { entity: EntityFinding; owns: RelationshipFinding }[] = [];
  for (const named of namedAcrossTurns(ctx)) out.push(pet(ctx, named.name, named.species));
  for (const [i, re] of patterns.entries()) {
    for (const m of text.matchAll(re)) {
      // "a pet named Max" names no species.
      const word = (i === 2 ? m[2] : m[1])?.toLowerCase();
      const species = word === undefined || word === 'pet' ? null : word;
      const petName = i === 2 ? m[1] : m[2];
      if (!petName || /^(?:I|We|The|And|But|She|He|They)$/.test(petName)) continue;
      if (out.some((p) => p.entity.name === petName)) continue;
      out.push(pet(ctx, petName, species));
    }
  }
  // "I adopted a pup from a shelter last week … I named it Ned": the speaker names the animal of this turn.
  for (const m of text.matchAll(namedIt)) {
    const petName = m[1];
    const animal = [...ctx.previous, s].map((x) => ANIMALS.exec(x.text)?.[1]).find((a) => a !== undefined);
    if (petName && animal && !out.some((p) => p.entity.name === petName))
      out.push(pet(ctx, petName, speciesOf(animal.toLowerCase())));
  }
  return out;
}

/**
 * When the pet became the speaker's: the past time of the sentence that tells getting it, this one or the one just
 * before in the turn about an animal ("I adopted my dog Luna in 2019"; "I got a puppy two weeks ago! Her name's
 * Coco"); undefined when neither tells it (it is theirs by the day it was told).
 */
function gotAt(ctx: PatternContext): string | undefined {
  const before = ctx.previous.at(-1);
  const told = [ctx.s, ...(before && ANIMALS.test(before.text) ? [before] : [])].find((x) => GOT.test(x.text));
  if (!told) return undefined;
  return relativeTimes(told.text, told.time, ctx.tz).find((t) => t.eventTime.slice(0, 10) < ctx.day)?.eventTime;
}

/** Words by which the speaker tells getting an animal: the sentence's time is when the pet became theirs. */
const GOT = /\b(?:adopted|got|bought|rescued|brought\s+(?:\w+\s+)?home|took\s+in|welcomed|picked\s+up)\b/i;

/**
 * The pet entity and the speaker's OWNS edge, with its species where the talk says which (null: none is recorded; a
 * `species: pet` only repeated the type).
 */
function pet(
  ctx: PatternContext,
  name: string,
  species: string | null,
): { entity: EntityFinding; owns: RelationshipFinding } {
  const { s } = ctx;
  const eventTime = gotAt(ctx) ?? eventTimeOf(ctx.day);
  const known: Record<string, string> = species === null ? {} : { species };
  return {
    entity: { name, type: 'pet', aliases: [], state: known, episodeId: s.episodeId, eventTime },
    owns: {
      source: s.self,
      target: name,
      type: 'OWNS',
      properties: known,
      ended: false,
      confidence: 0.7,
      episodeId: s.episodeId,
      eventTime,
    },
  };
}

/**
 * Pets named after the talk turned to them: "We've got a pup and a kitty." — "What are their names?" — "Luna and
 * Oliver!", or "What's her name? Does she get along with your other dog?" — "Her name is Shadow!". The names are
 * the speaker's pets when an animal was named in this turn or the two before; the species is that animal when only
 * one kind was named, else none (null). A baby's name ("his name is Kyle" after "that baby in the pic") is no pet, and
 * a name the turns before already said is the listener repeating it, not their pet.
 */
function namedAcrossTurns(ctx: PatternContext): { name: string; species: string | null }[] {
  const { s } = ctx;
  const asked = ctx.earlier.at(-1) ?? '';
  const m = NAME_IS.exec(s.text) ?? (ASKS_NAMES.test(asked) ? ONLY_NAMES.exec(s.text) : null);
  if (!m) return [];
  const talk = [...ctx.earlier, ...ctx.previous.map((p) => p.text), s.text].join(' ');
  const kinds = new Set(
    [...talk.matchAll(new RegExp(ANIMALS.source, 'gi'))].map((a) => speciesOf((a[1] ?? '').toLowerCase())),
  );
  if (kinds.size === 0 || /\b(?:baby|son|daughter|kid|child|brother|sister)\b/i.test(talk)) return [];
  const species = kinds.size === 1 ? ([...kinds][0] ?? null) : null;
  // A name the turns before already said is the listener agreeing ("That's right, his name is Ned"), not telling.
  const said = (name: string): boolean => ctx.earlier.some((t) => new RegExp(`\\b${name}\\b`).test(t));
  return [m[1], m[2]].flatMap((name) =>
    name && !/^(?:I|We|The|And|But|She|He|They|Yes|Yeah|Thanks|Aw|Oh|Wow)$/.test(name) && !said(name)
      ? [{ name, species }]
      : [],
  );
}

/** "pup" and "puppy" are a dog, "kitty" and "kitten" a cat. */
function speciesOf(word: string): string {
  if (/^(?:pup|puppy)$/.test(word)) return 'dog';
  if (/^(?:kitty|kitten)$/.test(word)) return 'cat';
  return word;
}
