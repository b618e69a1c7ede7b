/**
 * Titles of works in quotes ("Charlotte's Web", "Cyberpunk 2077") as books, movies, songs and games
 * (docs/offline-extractor.md "Personal events, pets, works and observations").
 */
import { eventTimeOf } from '../dates.js';
import type { EntityFinding, RelationshipFinding } from '../findings.js';
import { FIRST_PERSON, type PatternContext } from './context.js';

/**
 * Kinds of work: the words that name one (`cue`), the verb the speaker does it with, the relation that makes, and what
 * else that verb takes (`lookalike`: one listens to podcasts, watches channels, reads blogs, plays on apps).
 */
const WORK_KINDS: readonly { type: string; cue: RegExp; verb: RegExp; relation: string; lookalike: RegExp }[] = [
  {
    type: 'book',
    cue: /\b(books?|audiobooks?|e-?books?|bookshelf|bookshelves|novels?|memoir|series of books|author|written by)\b/i,
    verb: /\b(?:re-?)?read(?:s|ing)?\b/i,
    relation: 'READ',
    lookalike: /\b(?:blogs?|newsletters?|magazines?|articles?|posts?)\b/i,
  },
  {
    type: 'movie',
    cue: /\b(movies?|films?|shows?|series|documentar(?:y|ies)|episodes?|seasons?)\b/i,
    // "I saw that you had …" is noticing, not watching.
    verb: /\b(?:watch|watched|watching|binge[d]?|(?:saw|seen)(?!\s+that\b))\b/i,
    relation: 'WATCHED',
    lookalike: /\b(?:channels?|accounts?|streams?|streamers?|youtubers?)\b/i,
  },
  {
    type: 'song',
    cue: /\b(songs?|albums?|tracks?|single|tunes?)\b/i,
    verb: /\b(listen(?:ed|ing)? to|sing|sang|singing)\b/i,
    relation: 'LISTENED_TO',
    lookalike: /\b(?:podcasts?|radio|stations?)\b/i,
  },
  {
    type: 'game',
    cue: /\b(games?|rpgs?|tournaments?|consoles?)\b/i,
    verb: /\b(play|played|playing)\b/i,
    relation: 'PLAYED',
    lookalike: /\b(?:apps?|sports?|instruments?)\b/i,
  },
];

/** Things with titles that are none of the kinds of work above. */
const NOT_A_WORK =
  /\b(?:podcasts?|newsletters?|blogs?|channels?|apps?|courses?|classes?|workshops?|events?|festivals?|exhibitions?|exhibits?|accounts?|magazines?)\b/i;

/** Words of the stage around a title: a play or a musical, which one sees or is in, not a game. */
const STAGE = /\b(?:productions?|musicals?|theat(?:er|re)s?|stage)\b/i;

/**
 * Titles of works in quotes ("Charlotte's Web", "Cyberpunk 2077"), typed by the words around them (a book, a
 * movie, a song, a game): their own kinds, never people or places. The speaker READ / WATCHED / LISTENED_TO /
 * PLAYED it when they say so in first person.
 */
export function worksOf(ctx: PatternContext): { entity: EntityFinding; relation: RelationshipFinding | null }[] {
  const { s } = ctx;
  const out: { entity: EntityFinding; relation: RelationshipFinding | null }[] = [];
  for (const m of s.text.matchAll(/["“]([A-Z0-9][^"”]{1,58}?)[.,!?]?["”]/g)) {
    const title = (m[1] ?? '').trim();
    if (title.split(/\s+/).length > 8 || /[.!?]\s/.test(title)) continue;
    // The words right around the title say what it is before the rest of the sentence does ("listening to "The 7
    // Habits of Highly Effective People" audiobook" is a book; "podcasts" and "apps" are none of the kinds).
    const start = m.index;
    const near = s.text.slice(Math.max(0, start - 25), start + m[0].length + 20);
    if (NOT_A_WORK.test(near)) continue;
    const named = WORK_KINDS.find((k) => k.cue.test(near));
    if (!named && NOT_A_WORK.test(s.text)) continue;
    // On a stage one plays a part, not a game ("a local production of "A Midsummer Night's Dream" where I played Puck").
    const kind =
      named ??
      WORK_KINDS.find((k) => (k.type !== 'game' || !STAGE.test(near)) && (k.cue.test(s.text) || k.verb.test(s.text))) ??
      kindBefore(ctx);
    if (!kind) continue;
    // Known only by its verb, a title in a turn about what that verb also takes is one of those: "I've been listening
    // to "How I Built This" for months", after "I'm looking for some new podcasts".
    if (!named && !kind.cue.test(s.text) && ctx.previous.some((p) => kind.lookalike.test(p.text))) continue;
    const eventTime = eventTimeOf(ctx.day);
    const first = FIRST_PERSON.test(s.text) && done(s.text, kind.verb);
    out.push({
      entity: { name: title, type: kind.type, aliases: [], state: {}, episodeId: s.episodeId, eventTime },
      relation: first
        ? {
            source: s.self,
            target: title,
            type: kind.relation,
            properties: {},
            ended: false,
            confidence: 0.6,
            episodeId: s.episodeId,
            eventTime,
          }
        : null,
    });
  }
  return out;
}

/**
 * The kind of work the sentence just before names, for a title its own sentence says nothing about: "I also like
 * sci-fi movies. You can go see "The Wandering Earth"." (MemoryBank). Only the word for the kind counts there (a
 * verb before is about something else), and not where that sentence is about something none of the kinds are.
 */
function kindBefore(ctx: PatternContext): (typeof WORK_KINDS)[number] | undefined {
  const before = ctx.previous.at(-1)?.text;
  // The title's own sentence was checked against NOT_A_WORK before (worksOf).
  if (before === undefined || NOT_A_WORK.test(before)) return undefined;
  return WORK_KINDS.find((k) => k.cue.test(before));
}

/**
 * A wish, a plan or a denial before the verb: "I've been wanting to read …", "I'm going to watch …", "I'll try to
 * watch …", "I haven't watched it yet", "I've never seen …" (MemoryBank: not done yet).
 */
const NOT_YET =
  /(?:\b(?:want(?:s|ed|ing)? to|wanna|would like to|'d like to|plan(?:s|ned|ning)? (?:to|on)|hop(?:e|es|ing) to|going to|gonna|will|'ll|should|might|meaning to|try(?:ing)? to|need(?:s)? to)|n't|\b(?:not|never))\s+(?:(?:yet|ever|really|actually|even|get to|got(?:ten)? to|been able to)\s+){0,3}$/i;

/** Whether the sentence says the verb was done: some use of it not after a wish or a plan. */
function done(text: string, verb: RegExp): boolean {
  const all = new RegExp(verb.source, 'gi');
  return [...text.matchAll(all)].some((m) => !NOT_YET.test(text.slice(Math.max(0, m.index - 40), m.index)));
}
