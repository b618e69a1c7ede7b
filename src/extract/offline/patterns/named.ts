/**
 * Things a speaker introduces by name (docs/offline-extractor.md "Personal events, pets, works and observations"):
 * "someone named David", "an elderly veteran named Samuel", "this amazing woman, Jean," → a person; "a band called
 * Arcade Fire" → an organization; "a little town called Woodhaven" → a place. The kind of thing is read from the noun
 * before "named"/"called"; an animal's name is a pet (./personal.ts), a work's title in quotes is the quoted-title
 * rule's (a title without quotes has no clear end: "a movie called Manchester by the Sea"), and a noun this does not
 * know names nothing.
 */
import type { EntityFinding } from '../findings.js';
import { eventTimeOf } from '../dates.js';
import type { PatternContext } from './context.js';

/** The type of a thing by the noun that introduces it. */
const KINDS: readonly [string, RegExp][] = [
  [
    'person',
    /^(?:someone|somebody|person|guy|dude|girl|boy|woman|man|lady|gentleman|kid|friend|neighbou?r|veteran|coworker|co-worker|colleague|classmate|teacher|mentor|coach|student|artist|author|writer|singer|musician|painter|instructor|counselor|therapist|doctor|nurse|soldier|volunteer|resident|player)$/,
  ],
  [
    'organization',
    /^(?:band|company|startup|shop|store|cafe|café|restaurant|bakery|charity|organization|group|team|club|brand|label|studio|gym)$/,
  ],
  ['place', /^(?:town|city|village|place|park|lake|beach|mountain|island|trail|neighborhood|street|bar)$/],
];

/** "<det> [adjectives] <noun> named|called X" or "someone named X"; the noun is captured. */
const NAMED =
  /\b(?:(someone|somebody)|(?:a|an|this|that|my|our|his|her|their|the|one)\s+(?:[a-z-]+\s+){0,2}?([a-z-]+))\s+(?:named|called|titled)\s+(["“]?)([A-Z][\w'’-]*(?:\s+(?:of\s+|the\s+)?[A-Z][\w'’-]*){0,3})/g;
/** "this amazing woman, Jean," / "a veteran, Samuel,": a person's noun, a comma, a name. */
const APPOSITIVE =
  /\b(?:a|an|this|that|my|our)\s+(?:[a-z-]+\s+){0,2}?(woman|man|guy|girl|lady|friend|neighbou?r|veteran|coworker|colleague|mentor|teacher|kid)\s*,\s*([A-Z][a-z]+)\s*[,.!]/g;
const NOT_NAMES = /^(?:I|We|The|And|But|She|He|They|It|This|That|Yes|Yeah|Thanks|Hey|Oh|Wow|So)$/;

export function namedThings(ctx: PatternContext): EntityFinding[] {
  const { s } = ctx;
  const out: EntityFinding[] = [];
  const add = (name: string | undefined, type: string | undefined): void => {
    if (!name || !type || NOT_NAMES.test(name) || name === s.self) return;
    if (out.some((e) => e.name === name)) return;
    out.push({ name, type, aliases: [], state: {}, episodeId: s.episodeId, eventTime: eventTimeOf(ctx.day) });
  };
  for (const m of s.text.matchAll(NAMED)) {
    const noun = (m[1] ?? m[2] ?? '').toLowerCase();
    const type = KINDS.find(([, re]) => re.test(noun))?.[0];
    // A title in quotes is a work's, read by the quoted-title rule ("one with my group called "Finding Home"" is
    // the script's title, not the group's); a work's title without quotes has no clear end ("Manchester by the Sea").
    if (m[3]) continue;
    add(m[4]?.trim(), type);
  }
  for (const m of s.text.matchAll(APPOSITIVE)) add(m[2], 'person');
  return out;
}
