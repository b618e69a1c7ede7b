import { escapeRegExp } from '../domain/text-match.js';
import type { Entity } from '../domain/world.js';

/**
 * Junk entities (docs/audit.md): names that are not things a person would want tracked. Each detector is a pure
 * function of the entity and, for the type checks, the sentences it was named in. The first that fires is the
 * finding; null when none does.
 */
export type JunkKind =
  | 'pronoun'
  | 'stop-words'
  | 'fragment'
  | 'sentence'
  | 'code'
  | 'date'
  | 'pet-as-person'
  | 'breed-or-animal'
  | 'work-as-person';

export interface JunkFinding {
  kind: JunkKind;
  why: string;
  /** What to do: archive it, or retype it (to the type given). */
  action: { kind: 'archive' } | { kind: 'retype'; type: string };
}

const PRONOUNS = new Set(
  'i me my mine myself you your yours yourself he him his himself she her hers herself it its itself we us our ours ourselves they them their theirs themselves this that these those someone somebody anyone anybody everyone everybody nobody something anything everything nothing who whom whose which what'.split(
    ' ',
  ),
);
const FUNCTION_WORDS = new Set(
  'a an the and or but if of to in on at by for with from into onto about as is are was were be been being am do does did have has had not no so than then that this these those there here just very too also really right now its it well oh yeah yes okay ok hey hi hello thanks thank please'.split(
    ' ',
  ),
);
/** Kinds of entity that are names of things (not statements: beliefs, decisions, preferences, commitments). */
const NAMED_KINDS = new Set([
  'person',
  'place',
  'organization',
  'tool',
  'project',
  'pet',
  'book',
  'song',
  'game',
  'artwork',
  'event',
]);
const MONTHS = 'january february march april may june july august september october november december'.split(' ');
const WEEKDAYS = 'monday tuesday wednesday thursday friday saturday sunday'.split(' ');
/** Animal nouns: a closed set (the kinds of pet people talk about), used only to read the context of a name. */
export const ANIMALS =
  'dog dogs puppy puppies pup cat cats kitten kittens pet pets horse horses pony bird birds parrot fish turtle turtles tortoise hamster hamsters rabbit bunny guinea pig snake lizard gecko ferret chicken chickens goat cow';
const ANIMAL_WORDS = new Set(ANIMALS.split(' '));
const WORK_CUES =
  /\b(book|novel|song|album|movie|film|show|series|game|painting|poem|play|podcast|documentary|track)\b/i;

const words = (name: string) =>
  name
    .toLowerCase()
    .split(/[^\p{L}\p{N}'’]+/u)
    .filter(Boolean);

export function junkReason(
  entity: Pick<Entity, 'name' | 'type'>,
  sentences: readonly string[] = [],
): JunkFinding | null {
  const name = entity.name.trim();
  const w = words(name);
  const archive = { kind: 'archive' } as const;
  if (w.length === 0) return { kind: 'stop-words', why: 'the name has no word in it', action: archive };
  if (w.length === 1 && PRONOUNS.has(w[0] ?? '')) {
    return { kind: 'pronoun', why: `"${name}" is a pronoun, not a name`, action: archive };
  }
  if (w.every((x) => FUNCTION_WORDS.has(x) || PRONOUNS.has(x))) {
    return { kind: 'stop-words', why: `"${name}" is made of function words only`, action: archive };
  }
  if (/[(){}[\];=<>]|=>|::|\w\.\w+\(|^[./~]|\w\/\w+\.\w+$|\/\w+\/|\w_\w/.test(name)) {
    return { kind: 'code', why: `"${name}" looks like code or a path`, action: archive };
  }
  if (isDateName(w)) return { kind: 'date', why: `"${name}" is a date, not a thing`, action: archive };
  if (!NAMED_KINDS.has(entity.type)) {
    if (w.length > 30)
      return { kind: 'sentence', why: `a ${entity.type} of ${w.length} words is a paragraph`, action: archive };
    return null;
  }
  if (w.length > 6)
    return { kind: 'sentence', why: `a ${entity.type} name of ${w.length} words is a sentence`, action: archive };
  if (FUNCTION_WORDS.has(w[0] ?? '') || FUNCTION_WORDS.has(w[w.length - 1] ?? '')) {
    if (!(w[0] === 'the' && /^The [A-Z]/.test(name))) {
      return {
        kind: 'fragment',
        why: `"${name}" starts or ends with a function word: a piece of a sentence`,
        action: archive,
      };
    }
  }
  if (entity.type === 'person' || entity.type === 'place') {
    const context = petContext(name, sentences);
    if (context === 'pet' && entity.type === 'person') {
      return {
        kind: 'pet-as-person',
        why: `"${name}" is named as an animal ("${contextSample(name, sentences)}")`,
        action: { kind: 'retype', type: 'pet' },
      };
    }
    if (context === 'breed') {
      return {
        kind: 'breed-or-animal',
        why: `"${name}" is a kind of animal ("${contextSample(name, sentences)}")`,
        action: archive,
      };
    }
    if (entity.type === 'person' && sentences.some((s) => workNamed(name, s))) {
      return {
        kind: 'work-as-person',
        why: `"${name}" is the title of a work ("${contextSample(name, sentences)}")`,
        action: archive,
      };
    }
  }
  return null;
}

function isDateName(w: readonly string[]): boolean {
  const dateWord = (x: string) =>
    MONTHS.includes(x) ||
    WEEKDAYS.includes(x) ||
    /^\d{1,4}(st|nd|rd|th)?$/.test(x) ||
    ['today', 'yesterday', 'tomorrow', 'tonight'].includes(x);
  return w.every(dateWord) && w.some((x) => x !== 'may' || w.length > 1);
}

/**
 * How a name is used next to animal words: "my dog Max", "Max, my puppy", "our cat Luna" → a pet; "a Chihuahua
 * puppy", "she's a Chihuahua", "Jack Russell mix" → a breed (the name describes an animal rather than naming one).
 */
export function petContext(name: string, sentences: readonly string[]): 'pet' | 'breed' | null {
  const n = escapeRegExp(name);
  let pet = 0;
  let breed = 0;
  for (const s of sentences) {
    const lower = s.toLowerCase();
    if (!lower.includes(name.toLowerCase())) continue;
    const animal = `(${[...ANIMAL_WORDS].join('|')})`;
    if (new RegExp(`\\b${animal}\\s+(named|called)?\\s*${n}\\b`, 'i').test(s)) pet += 1;
    if (new RegExp(`\\b${n},?\\s+(is\\s+)?(my|our|his|her|their|the)\\s+${animal}\\b`, 'i').test(s)) pet += 1;
    if (new RegExp(`\\b${n}\\s+(${animal}|mix|breed)\\b`, 'i').test(s)) breed += 1;
    if (new RegExp(`\\b(a|an)\\s+${n}\\b`, 'i').test(s) && new RegExp(`\\b${animal}\\b`, 'i').test(s)) breed += 1;
  }
  if (pet > 0 && pet >= breed) return 'pet';
  if (breed > 0) return 'breed';
  return null;
}

function workNamed(name: string, sentence: string): boolean {
  const n = escapeRegExp(name);
  return (
    new RegExp(`\\b${WORK_CUES.source.slice(2, -2)}\\s+(called|named|titled)\\s+["“']?${n}`, 'i').test(sentence) ||
    (new RegExp(`["“]${n}["”]`).test(sentence) && WORK_CUES.test(sentence))
  );
}

function contextSample(name: string, sentences: readonly string[]): string {
  const s = sentences.find((x) => x.toLowerCase().includes(name.toLowerCase())) ?? '';
  return s.length > 100 ? `${s.slice(0, 97)}…` : s;
}
