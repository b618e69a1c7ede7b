/**
 * What people say about their own lives (docs/offline-extractor.md "Personal events and observations"): in a chat
 * between two people (LoCoMo, MemoryBank) or with an assistant, each speaker tells what they did, what they have,
 * what they plan and how they feel. Three kinds of finding, each about the speaker ("I"):
 * - events: "I painted that lake sunrise last year", "We adopted a puppy two weeks ago" → a dated state change of the
 *   speaker's one `latest_event` attribute (value: "painted that lake sunrise"), the relative time resolved against
 *   when it was said; the timeline keeps every event, the state only the latest (one field per verb made a person's
 *   state a list of a hundred verbs);
 * - pets: "my dog Max", "a puppy named Coco" → a pet entity (with its species) the speaker OWNS;
 * - observations: the speaker's own sentences about themselves (not reactions to the other person, not questions),
 *   kept as pyramid observations in the speaker's words, with relative times resolved.
 */
import { vagueCandidates } from '../../../query/time/vague.js';
import { EVENT_ATTRIBUTE } from '../../../domain/world.js';
import { escapeRegExp } from '../../../domain/text-match.js';
import { eventTimeOf } from '../dates.js';
import { capitalize, lowerFirst } from '../names.js';
import type { Findings, ObservationFinding, StateChangeFinding } from '../findings.js';
import type { NlpVerb, SpanTagger } from '../nlp.js';
import { CLAUSE_END, FIRST_PERSON, isHedged, isQuestion, OPEN_END, type PatternContext } from './context.js';
import { namedThings } from './named.js';
import { worksOf } from './works.js';
import { ANIMALS, petsOf } from './pets.js';
import { contrasted, relativeTimes, sentenceTimes, type ResolvedTime } from './event-times.js';
import { leadsClause, planningAsFuture, planOf } from './plans.js';
import { actsOnNothing, bareAsClause, insideGerundSubject, openingParticiple } from './framing.js';
import { describesThing, HUNG_REST, hungNoun, RELATIVE_REST, relativeHead, SUBJECT_BEFORE } from './relative-clause.js';

/** Verbs that say something about the conversation, not about the speaker's life ("I think", "I saw that"). */
const NOT_EVENTS = new Set(
  (
    'be have do say tell think know guess mean hope wish feel want need like love hate wonder see hear remember ' +
    'forget realize understand agree thank appreciate miss bet believe imagine suppose figure notice mention ask ' +
    'answer reply look sound seem can could would should will may might must let'
  ).split(' '),
);

/** What one has with someone: "a nice chat with a fan", "dinner with my parents", "a fight with Ana" (up to 4 words). */
const HAD_WITH =
  /^\s+(?:(?:a|an|some)\s+)?(?:[a-z-]+\s+){0,3}?[a-z-]+\s+with\s+(?:(?:a|an|the|my|our|his|her|their|some|two|three)\b|\p{Lu})/u;

/** Openings of a reaction to the other person rather than a statement about oneself. */
const REACTION =
  /^(?:thanks|thank you|wow|aw+|haha|lol|omg|congrats|congratulations|sounds|that(?:'s| is| sounds)|so (?:happy|glad|proud) for you|i(?:'m| am) (?:so )?(?:glad|happy for you|proud of you|sorry)|i (?:totally )?agree|i hope|i bet|i know|i see|i guess|i mean|i can'?t wait|i love (?:that|it|this|your|how you)|i appreciate|you(?:'re|'ve| are| have)?\b|yes|yeah|yep|nope|no|sure|okay|ok|oh)\b/i;

/** Talk to the other person ("you did great", "your painting"), not about oneself. */
const SECOND_PERSON = /\b(?:you|your|yours|you're|you've|you'd|you'll|ya)\b/i;
/** Chat drops the subject: "Lost my job yesterday", "Been running longer" (after an interjection at most). */
const LEAD_WORDS = 'hey|hi|yeah|yep|yup|well|so|oh|wow|actually|also|just|finally|recently|lol|haha';
const NO_SUBJECT = new RegExp(`^\\s*(?:(?:${LEAD_WORDS})[,!.]?\\s+)*$`, 'i');
const LEAD_WORD = new RegExp(`^(?:${LEAD_WORDS})$`);
const MAX_OBJECT_WORDS = 10;
const DETERMINER = /^(?:my|our|the|a|an|his|her|their|this|that|some|all)$/;

/** Findings of one sentence. */
export function findPersonal(ctx: PatternContext & { events?: boolean }): Partial<Findings> {
  const { s } = ctx;
  if (isQuestion(s)) return {};
  const out: Required<Pick<Findings, 'stateChanges' | 'entities' | 'relationships' | 'observations'>> = {
    stateChanges: [],
    entities: [],
    relationships: [],
    observations: [],
  };
  const { past: times, coming } = sentenceTimes(s.text, s.time, ctx.tz);
  const past = times.some((t) => t.eventTime.slice(0, 10) < ctx.day);
  // "We're planning to take a team trip next month" is a plan, not a deliberation.
  const hedgedText = (text: string): boolean =>
    isHedged({ ...s, text }) && (coming.length === 0 || isHedged({ ...s, text: text.replace(PLANNING_TO, '') }));
  // A hedge holds for its own clause: "Since I recently upgraded my router, I'm thinking maybe it's time to upgrade my
  // computer too" tells the router's upgrade (the sentence had been dropped whole).
  const hedged = hedgedText(s.text);
  if (ctx.tagger && ctx.events !== false && mayTellEvent(s.text, ctx.tagger, { past, coming })) {
    const tagger = ctx.tagger;
    const verbs = planningAsFuture(tagger.verbs(s.text), s.text)
      .map((v) => clipAtTime(v, times, s.text))
      .map((v) => (past ? pastByTime(v, s.text, tagger) : v));
    for (const v of verbs) {
      if (hedged && hedgedText(clauseAround(s.text, v.start))) continue;
      const event = eventOf(ctx, v, { times, coming }, tagger, verbs);
      if (event) out.stateChanges.push(event);
    }
  }
  for (const pet of petsOf(ctx)) {
    out.entities.push(pet.entity);
    out.relationships.push(pet.owns);
  }
  for (const entity of namedThings(ctx)) {
    if (!out.entities.some((e) => e.name === entity.name)) out.entities.push(entity);
  }
  for (const work of worksOf(ctx)) {
    out.entities.push(work.entity);
    if (work.relation) out.relationships.push(work.relation);
  }
  const observation = observationOf(ctx, times);
  if (observation) out.observations.push(observation);
  return out;
}

/**
 * A cheap test before compromise parses the sentence: some word is a past tense or a gerund (by its ending, or by
 * compromise's lexicon for irregular forms such as "went", "ran", "took"), or, in a sentence with a time before the
 * day it was said (`past`), a verb written as its own past ("I quit last Friday"). Most chat sentences have none.
 */
function mayTellEvent(
  text: string,
  tagger: SpanTagger,
  times: { past: boolean; coming: readonly ResolvedTime[] },
): boolean {
  const { past } = times;
  // A time still to come may make a plan of any verb ("I'll host", "I fly to Paris tomorrow").
  if (times.coming.length > 0) return true;
  const words = text.toLowerCase().match(/[a-z']+/g) ?? [];
  const eventLike = (at: number): boolean => {
    const word = words[at];
    if (word === undefined) return false;
    if (word.length > 3 && /(?:ed|ing)$/.test(word)) return true;
    const tags = tagger.lexicon(word);
    if (tags.includes('PastTense') || tags.includes('Participle')) return true;
    if (past && tagger.ownPast(word)) return true;
    // The lexicon files some past forms as adjectives ("lost"); one before a determiner is a verb: "lost my job".
    return tags.includes('Adjective') && DETERMINER.test(words[at + 1] ?? '');
  };
  // After the speaker as subject (within four words: "I just finally went"), or the speaker's own ("my grandma
  // passed away"), or first in the sentence after the words chat drops its subject behind ("Just started …").
  let first = 0;
  while (first < words.length - 1 && LEAD_WORD.test(words[first] ?? '')) first++;
  if (eventLike(first)) return true;
  for (const [i, word] of words.entries()) {
    if (!/^(?:i|we|i'm|i've|we're|we've|my|our)$/.test(word)) continue;
    for (let j = i + 1; j <= i + 4 && j < words.length; j++) if (eventLike(j)) return true;
  }
  return false;
}

/**
 * Where one clause ends and the next begins: a comma, a semicolon, a dash, or a conjunction before a new subject
 * ("…, and I actually just presented", "since I moved").
 */
const CLAUSE_BREAK =
  /[,;]\s+|\s+[-–—]\s+|\s+(?:and|but|so|since|because|while|although|though)\s+(?=(?:i|we|he|she|they|my|our)\b)/gi;

/** The clause of `text` that holds position `at`. */
export function clauseAround(text: string, at: number): string {
  let start = 0;
  for (const m of text.matchAll(CLAUSE_BREAK)) {
    if (m.index >= at) return text.slice(start, m.index);
    start = m.index + m[0].length;
  }
  return text.slice(start);
}

/** "planning to", "plan to": a hedge (isHedged), unless the sentence says when (a plan). */
const PLANNING_TO = /\bplan(?:ning)? to\b/gi;

/**
 * A verb phrase that runs into a time: compromise reads "I did last Sunday" as the verb "did last". The phrase ends
 * where the time begins, so the time is the time and not the object.
 */
function clipAtTime(v: NlpVerb, times: readonly ResolvedTime[], text: string): NlpVerb {
  const inside = times.find((t) => t.from > v.start && t.from < v.end);
  if (!inside) return v;
  return { ...v, end: v.start + text.slice(v.start, inside.from).trimEnd().length };
}

/**
 * A verb written as its own past ("quit", "set up", "cut") that compromise reads as present is past in a sentence
 * with a time before the day it was said: "I quit my job last Friday", "I cut my hair short yesterday". Only the
 * bare form: "she sets the table" stays present. The caller checks the time.
 */
function pastByTime(v: NlpVerb, text: string, tagger: SpanTagger): NlpVerb {
  const gerund = v.form === 'gerund-phrase';
  if (v.tense !== 'present' || (v.form !== 'simple-present' && !gerund) || v.copula || v.negative) return v;
  const head = v.infinitive.toLowerCase().split(' ')[0] ?? '';
  if (!tagger.ownPast(head) || !new RegExp(String.raw`\b${head}\b`, 'i').test(text.slice(v.start, v.end))) return v;
  // "I quit smoking two months ago" stays a gerund phrase ("went hiking"), now in the past.
  return { ...v, tense: 'past', form: gerund ? v.form : 'simple-past' };
}

/** A sentence back in the present ("now I'm even more pumped"): no earlier time of the turn carries into it. */
const NOW = /\b(?:now|nowadays|currently|these days|at the moment|right now)\b/i;

/**
 * The time a story told in this turn is set in: the last relative time of an earlier sentence of the turn, when it
 * points before the day it was said ("Last weekend I went to Yuntai Mountain. I ran out of food halfway up." — the
 * second sentence happened last weekend too). Null when the turn's last time is today or later, or there is none.
 */
function storyTime(ctx: PatternContext): (ResolvedTime & { told: string }) | null {
  for (const prev of [...ctx.previous].reverse()) {
    const last = relativeTimes(prev.text, prev.time, ctx.tz).at(-1);
    if (!last) continue;
    return last.eventTime.slice(0, 10) < ctx.day ? { ...last, told: prev.text.slice(last.from, last.to) } : null;
  }
  return null;
}

/**
 * An object that only points back at what was said before ("it", "for it", "watched it too", "made this", "watched a
 * bunch of them", "got it covered"), or at nothing in particular ("just finished something", "I've got something to
 * share" before the news itself): the event would say nothing on its own ("donated for it").
 */
const POINTS_BACK =
  /^(?:(?:(?:note|notice|care|track)\s+of|for|to|with|about|on|at|in|from|of|into|by)\s+)?(?:(?:a bunch|a few|a couple|a lot|lots|some|all|most|many|each|both|any)\s+of\s+)?(?:it|that|this|them|these|those|one|so|too|there|here|a lot|lots|much|well|something|anything|stuff)(?:\s+(?:too|also|again|as well|now|back|yet|together|covered|done|to (?:share|show you|show|tell you|tell|say)))?$/i;

/** How long, and nothing else (after a particle at most): "for a while", "on for a while", "for a long time", "for ages", "for two years", "for a few weeks". */
const DURATION_ONLY =
  /^(?:(?:on|at|away|out)\s+)?(?:for|in)\s+(?:a\s+(?:long\s+|little\s+)?(?:while|time)|ages|years|months|weeks|days|hours|(?:(?:a|an|one|two|three|four|five|six|a few|a couple of|several|many|\d+)\s+)(?:more\s+)?(?:minutes?|hours?|days?|weeks?|months?|years?))$/i;

/** An object without the person named at its end, the one spoken to ("it Nate", "it, Nate" → "it"). Pure. */
function withoutAddressee(
  object: string,
  mentions: readonly { name: string; surface: string; type: string }[],
): string {
  const m = /^(.*?\S),?\s+(\p{Lu}[\p{L}'’-]*)$/u.exec(object);
  const name = m?.[2];
  if (!m?.[1] || !name || !mentions.some((x) => x.type === 'person' && x.surface === name)) return object;
  return m[1];
}

/** A feeling toward the one spoken to, not an event: "rooting for you", "impressed by your commitment", "got your back". */
const TOWARD_YOU =
  /^(?:(?:for|by|with|of|on|about)\s+)?(?:you|your\s+(?:back|commitment|dedication|hard work|strength|courage|progress))$|^a question for you$/i;

/**
 * A sentence about the conversation itself ("I've learned a lot during our chat", "In the process of talking to
 * you, I learned a lot"): what someone got from talking to an AI companion is no event of their life. ("Taken note
 * of that" points back, above.)
 */
const ABOUT_THE_CHAT = /\b(?:(?:our|this) (?:chats?|conversations?)|(?:talking|chatting|speaking) (?:to|with) you)\b/i;

/** "I painted that lake sunrise last year" → painted: "that lake sunrise", dated 2022, said by the speaker. */
function eventOf(
  ctx: PatternContext,
  v: NlpVerb,
  sentence: { times: readonly ResolvedTime[]; coming: readonly ResolvedTime[] },
  tagger: SpanTagger,
  verbs: readonly NlpVerb[] = [],
): StateChangeFinding | null {
  const { s } = ctx;
  const { times, coming } = sentence;
  const before = s.text.slice(0, v.start);
  // "Been training for a marathon": "I've been …" with the subject dropped, as chat does.
  const droppedPerfect = v.form === '' && /^been\s+[a-z]+ing\b/i.test(s.text.slice(v.start)) && NO_SUBJECT.test(before);
  const ongoing = v.form === 'present-progressive' || v.form === 'present-perfect-progressive' || droppedPerfect;
  // The future is told only as a plan, with a time still to come (planOf); so is the simple present of a timetable
  // ("I fly to Paris tomorrow", "I start my new job in March").
  const scheduled = v.form === 'simple-present' && v.tense === 'present' && !v.copula;
  const future = (v.tense === 'future' || scheduled) && coming.length > 0;
  if ((v.tense !== 'past' && !ongoing && !future) || v.copula || v.negative) return null;
  const infinitive = v.infinitive.toLowerCase().trim();
  // "went hiking", "go swimming": the activity is the gerund and needs no object.
  const gerund = v.form === 'gerund-phrase' && /^[a-z]+ [a-z]{2,}ing$/.test(infinitive);
  if (
    !gerund &&
    !/^[a-z]+(?: (?:up|out|off|in|on|over|back|down|away|around|through|into|to|for|with))?$/.test(infinitive)
  )
    return null;
  // "I'm doing kickboxing" is an activity; "I do think", "I'm doing great" are not (checked on the object below).
  const activity = infinitive === 'do' && ongoing;
  // "Last week I had a nice chat with a Harry Potter fan": time spent with someone, on a day the sentence names.
  const together =
    infinitive === 'have' && v.tense === 'past' && times.length > 0 && HAD_WITH.test(s.text.slice(v.end));
  if (NOT_EVENTS.has(infinitive.split(' ')[0] ?? '') && !activity && !together) return null;
  const speaker = SUBJECT_BEFORE.test(before) || ((v.tense === 'past' || droppedPerfect) && NO_SUBJECT.test(before));
  // What happened to the speaker's own people or pets ("my grandma passed away") is the speaker's event too.
  const subject = !speaker && v.form === 'simple-past' ? ownSubjectOf(before, tagger) : null;
  if (!speaker && subject === null) return null;
  // "Given all of the above, write me …": a phrase the sentence opens with, not a past with its subject dropped.
  if (speaker && !droppedPerfect && !SUBJECT_BEFORE.test(before) && openingParticiple(s.text, v, tagger)) return null;
  // "it made me feel like I belonged", "I felt as if we had won": a feeling, not an event.
  if (FELT_LIKE.test(before)) return null;
  // "Since we spoke last, I've had quite the adventure": the last talk is when the news starts, not news.
  if (SINCE_LAST_TALK.test(before) && TALK_VERBS.has(infinitive.split(' ')[0] ?? '')) return null;
  // "recovering from a sunburn I got during my beach trip": the event is what the noun before names.
  const hung = subject === null ? hungNoun(before, tagger) : null;
  // "my new backpack, which I bought three weeks ago": the event is about the thing before "which" or "that".
  const head = subject === null && hung === null ? relativeHead(before, tagger) : null;
  if (subject === null && !hung && !head && describesThing(before, tagger)) return null;
  const rest = s.text.slice(v.end);
  // What was done, up to the clause's end; past MAX_OBJECT_WORDS, up to a purpose ("… to encourage students"). A
  // clause about a thing inside the sentence's subject ends where the main clause's verb begins ("the photos that I
  // took in Paris last month are amazing").
  const clause = clauseEnd(rest, tagger);
  let found = objectUpTo(ctx, v, times, rest, head === null ? clause : mainVerbCut(verbs, v, clause));
  const purpose =
    wordCount(found.object) > MAX_OBJECT_WORDS
      ? (purposeEnd(rest, v, verbs) ??
        coordinatedEnd(rest, v, verbs) ??
        adjunctEnd(clause ? rest.slice(0, clause.index) : rest, tagger))
      : null;
  if (purpose) found = objectUpTo(ctx, v, times, rest, purpose);
  const { own, vagueText, cut } = found;
  // The relative clause's own words are only where and for what ("I took to Tibet"); anything else goes on with the
  // main clause, and the sentence is not read as an event.
  // A clause with neither ("the paths I've taken", "the clothes I packed") describes the thing, and tells no event.
  // A time still to come counts too: "a dinner party I'm hosting next week" is a plan.
  const allTimes = [...times, ...coming];
  const timed = own !== undefined || allTimes.some((t) => t.from >= v.end);
  // compromise reads "took in" of "the photos that I took in Paris" as one verb: its particle says where.
  const particle = hung !== null || head !== null ? PARTICLE_END.exec(s.text.slice(v.start, v.end)) : null;
  const verbEnd = v.end - (particle?.[0].length ?? 0);
  const hungRest = `${particle?.[1] ?? ''} ${
    allTimes.some((t) => s.text.slice(t.from, t.to).toLowerCase() === found.object.toLowerCase()) ? '' : found.object
  }`.trim();
  if (hung !== null && (hungRest === '' ? !timed : !HUNG_REST.test(hungRest))) return null;
  // Such a clause tells an event only with a time of its own, and no other object after its verb.
  if (head !== null && (own === undefined || !RELATIVE_REST.test(hungRest))) return null;
  const thing = hung ?? head;
  const object = withoutStrandedClause(thing === null ? found.object : `${lowerDeterminer(thing)} ${hungRest}`.trim());
  const phrase = s.text.slice(v.start, v.end);
  if (feeling({ v, before, phrase, object, tagger }) || notHappened(phrase, infinitive, object)) return null;
  // "I have always enjoyed reading", "we usually went hiking": a habit, not something that happened then.
  if (HABIT.test(s.text.slice(Math.max(0, v.start - 12), v.end))) return null;
  const words = object.split(/\s+/).filter(Boolean);
  // An object of adverbs alone ("I've tried before") is none; what is going on may be told so ("Been running longer").
  // "I've been working on for a while": an object that is only how long tells what was done no more than none does.
  const bare = words.length === 0 || DURATION_ONLY.test(object) || (!ongoing && actsOnNothing(words, tagger));
  if ((bare && !gerund && subject === null && !milestone(v, s.text)) || words.length > MAX_OBJECT_WORDS) return null;
  if (subject !== null && !ownEventObject(words, tagger)) return null;
  if (activity && !/^(?:\w{3,}ing|my|our|a|an|the|some)$/i.test(words[0] ?? '')) return null;
  // Work on tools and projects ("we moved the backend to Supabase") is the tool and project families' business.
  const end = v.end + (cut ? cut.index : rest.length);
  if (s.mentions.some((m) => (m.type === 'tool' || m.type === 'project') && m.start >= v.end && m.start < end))
    return null;
  // "Got it Nate": a person named at the end is the one spoken to, and what is left points back.
  const spokenTo = withoutAddressee(object, s.mentions);
  if (POINTS_BACK.test(spokenTo) || TOWARD_YOU.test(object) || ABOUT_THE_CHAT.test(s.text)) return null;
  if (insideGerundSubject(s.text, before, words, tagger) || bareAsClause(before, words, tagger)) return null;
  if (words.length > 0 && OPEN_END.test(object)) return null;
  // "I am trying my best" tells "Trying my best", and "I have been reading" "Been reading", as "I'm trying" and
  // "I've been reading" do: the auxiliary of the present (perfect) says nothing the summary needs.
  const verbText = s.text
    .slice(v.start, verbEnd)
    .replace(/^(?:just|finally|recently|also|actually|really)\s+/i, '')
    .replace(/^(?:am|is|are)\s+(?=[a-z]+ing\b)/i, '')
    .replace(/^(?:have|has)\s+(?:(?:also|already|just|finally|recently)\s+)?(?=[a-z]{2,})/i, '');
  // A sentence with no time of its own that goes on with a story told earlier in the turn is set when the story is.
  const carried =
    !own && times.length === 0 && !vagueText && v.form === 'simple-past' && !NOW.test(s.text) ? storyTime(ctx) : null;
  // What is going on now takes no past time of a clause before it ("I got my approval three months ago, and I'm
  // trying to figure out my options").
  const when =
    own ??
    times.find(
      (t) => !contrasted(s.text, t, v.end) && (!ongoing || t.to > v.start || leadsClause(s.text, t, v.start)),
    ) ??
    carried ??
    undefined;
  const told = `${subject === null ? '' : `${subject} `}${verbText} ${object}`;
  const plan =
    v.form === 'present-progressive' || future ? planOf(ctx, { when, coming, start: v.start, end, told }) : null;
  if (plan === 'untold') return null;
  if (plan || future) return plan;
  const whenText = carried?.told ?? (when ? s.text.slice(when.from, when.to) : null);
  const said = when ? ` (${whenText}${when.label ? ` [${when.label}]` : ''})` : vagueText ? ` (${vagueText})` : '';
  const summary = `${capitalize(told)}${said}`;
  return {
    entityName: s.self,
    whatChanged: summary.replace(/\s+/g, ' ').trim(),
    attribute: EVENT_ATTRIBUTE,
    newStateAspect: lowerFirst(told).replace(/\s+/g, ' ').trim(),
    isContradiction: false,
    confidence: 0.6,
    episodeId: s.episodeId,
    eventTime: when?.eventTime ?? eventTimeOf(ctx.day),
  };
}

/** "a homeless shelter I volunteer at": a clause of the speaker's own that ends on its preposition. */
const STRANDED_CLAUSE =
  /^(.*?\S)\s+(?:that\s+|which\s+)?(?:I|[Ww]e)\s+(?:[a-z']+\s+){1,3}?(?:at|in|to|for|with|on|from|about|into)$/;

/**
 * An object cut before a clause of the speaker's that ends on its preposition ("my old car to a homeless shelter I
 * volunteer at" → "my old car to a homeless shelter"): the clause only says which shelter, and an object ending on a
 * preposition reads as cut short (OPEN_END) and told no event. Anything else is left as it is. Pure.
 */
export function withoutStrandedClause(object: string): string {
  const m = STRANDED_CLAUSE.exec(object);
  return m?.[1] && !OPEN_END.test(m[1]) ? m[1] : object;
}

/** A particle compromise joined to the verb ("took in"), when what follows says where or for what. */
const PARTICLE_END = /\s+(in|at|on|to|from|for|with|into|around|through)$/i;

/** A determiner opening the sentence, in lower case inside a summary ("The photos" → "the photos"). */
const lowerDeterminer = (phrase: string): string =>
  phrase.replace(/^(?:The|A|An|This|These|Those|My|Our|His|Her|Their|Some)\b/, (d) => d.toLowerCase());

/** The cut at the next verb after `v` when it comes before the clause's own end (`end`). Pure. */
function mainVerbCut(verbs: readonly NlpVerb[], v: NlpVerb, end: { index: number } | null): { index: number } | null {
  const next = verbs.find((x) => x.start > v.end);
  if (!next || (end !== null && end.index <= next.start - v.end)) return end;
  return { index: next.start - v.end };
}

/** Verbs that tell a turn in a life with no object: "I retired last year", "I graduated in May". */
const LIFE_MILESTONES = new Set([
  'retire',
  'graduate',
  'resign',
  'relocate',
  'move',
  'emigrate',
  'immigrate',
  'elope',
  'enlist',
  // "I quit last Friday": a job, most often; past only with a time (pastByTime).
  'quit',
]);

/**
 * An event complete without an object: a change that befell the speaker ("I got married", "we got engaged", "I got
 * promoted": compromise's passive past with "got"), or a milestone verb in the past ("I retired"). Pure.
 */
function milestone(v: NlpVerb, text: string): boolean {
  if (v.form === 'passive-past' && /^(?:just\s+|finally\s+)?got\s/i.test(text.slice(v.start, v.end))) return true;
  return v.tense === 'past' && LIFE_MILESTONES.has(v.infinitive.toLowerCase());
}

/** "my grandma", "our son", "my little brother", "my dog Max" right before the verb (adverbs between allowed). */
const OWN_SUBJECT =
  /\b((?:[Mm]y|[Oo]ur)\s+(?:[a-z][\w'’-]*\s+){0,2}?([a-z][\w'’-]*)(?:\s+[A-Z][a-z]+)?)(?:\s+(?:just|finally|recently|also|actually|really|suddenly))?\s*$/;

/**
 * The speaker's own person or pet as the subject of the clause ("my grandma passed away", "my son got into an
 * accident", "my dog Max got sick"): a noun compromise files as a person (its Actor tag: mom, son, friend, boss …)
 * or an animal. Things ("my car broke down", "my heart sank") are not taken. Null when there is none.
 */
function ownSubjectOf(before: string, tagger: SpanTagger): string | null {
  const m = OWN_SUBJECT.exec(before);
  const head = m?.[2]?.toLowerCase();
  if (!m?.[1] || head === undefined) return null;
  return tagger.lexicon(head).includes('Actor') || ANIMALS.test(head) ? m[1] : null;
}

/**
 * What the speaker's own person or pet did says something on its own: nothing ("passed away"), or an object that
 * is not "it" ("made it worth it"), "me" made to do something ("made me decide to act") or a lone adverb ("came even").
 */
function ownEventObject(words: readonly string[], tagger: SpanTagger): boolean {
  const [first, second] = words.map((w) => w.toLowerCase());
  if (first === undefined) return true;
  if (first === 'it' || (first === 'me' && second !== undefined && tagger.lexicon(second).includes('Infinitive')))
    return false;
  return !(words.length === 1 && tagger.lexicon(first).includes('Adverb'));
}

const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/**
 * An event's object: the words after the verb up to `cut`, without the time phrase inside it (the event's date) or
 * a vague time ("a few weeks ago", "recently": it names no day, so the event keeps the day it was said and the
 * summary keeps the words).
 */
function objectUpTo(
  ctx: PatternContext,
  v: NlpVerb,
  times: readonly ResolvedTime[],
  rest: string,
  cut: { index: number } | null,
): { object: string; own: ResolvedTime | undefined; vagueText: string | null; cut: { index: number } | null } {
  const { s } = ctx;
  let object = (cut ? rest.slice(0, cut.index) : rest).trim();
  // A time in a clause of its own inside the object ("the scarf that I started last winter") is that clause's.
  const own = times.find((t) => t.from >= v.end && t.from < v.end + object.length + 1 && !contrasted(s.text, t, v.end));
  // The time may run past the object's end at a comma ("on May 15, 2019"): what of it the object holds goes.
  const said = own ? s.text.slice(own.from, own.to) : '';
  if (own)
    object = object
      // A word that makes the time rough goes with it ("bought it about three weeks ago").
      .replace(new RegExp(`\\b${ROUGHLY.source}\\s+(?=${escapeRegExp(said)})`, 'i'), '')
      .replace(said, '')
      .replace(said.split(',')[0] ?? '', '')
      .replace(/\s+/g, ' ')
      .trim()
      // The preposition the time came with goes too ("experimenting over the past month", "watched it around").
      .replace(/\s+(?:over|around|during|throughout|within)$/i, '');
  const vague = vagueCandidates({ text: object, now: s.time, tz: ctx.tz, periods: [], floor: 0 })[0];
  const vagueText = vague ? object.slice(vague.from, vague.to) : null;
  if (vagueText) object = object.replace(vagueText, '').replace(/\s+/g, ' ').trim();
  // A conjunction left at the end once a time went ("got back from a trip to Japan and before that, …").
  object = object.replace(/\s+(?:and|but|or)$/i, '');
  return { object: closeQuote(object), own, vagueText, cut };
}

/**
 * A title quoted with its comma inside ("called "Police Story," which tells…") is cut at that comma: the object gets
 * its closing quote back rather than keeping an open one. Pure.
 */
function closeQuote(object: string): string {
  const straight = (object.match(/"/g) ?? []).length;
  if (straight % 2 === 1 && /"[^"]+$/.test(object)) return `${object}"`;
  const opened = (object.match(/“/g) ?? []).length;
  if (opened > (object.match(/”/g) ?? []).length && /“[^”]+$/.test(object)) return `${object}”`;
  return object;
}

/** "to" (or "in order to") right before a verb: what follows says why, not what was done. */
const TO_BEFORE = /\s+(?:in order\s+)?to\s+$/i;
/**
 * "learning how to play the piano", "got the chance to speak": the verb after "how to", or after a noun that takes
 * one ("the chance", "the courage"), is what was done or learned, not a purpose.
 */
const HOW =
  /\b(?:how|what|where|when|which|who|whether|chance|opportunity|courage|strength|attitude|time|way|need|urge)$/i;

/**
 * Where a long event object ends before a purpose: "I gave a talk at my school last week to encourage students to get
 * involved" did "gave a talk at my school", where the eleven words to the end were too many to be an event. The next
 * verb the parser found, with "to" before it, ends the object where something is left before it ("went to see a
 * movie") and it is not "how to …". Null: no such verb, or CLAUSE_END ends the object first.
 */
function purposeEnd(rest: string, v: NlpVerb, verbs: readonly NlpVerb[]): { index: number } | null {
  const next = verbs.find((n) => n.start > v.end);
  if (!next) return null;
  const before = rest.slice(0, next.start - v.end);
  const to = TO_BEFORE.exec(before);
  if (!to) return null;
  const object = before.slice(0, to.index).trim();
  const clause = CLAUSE_END.exec(before);
  if (object === '' || OPEN_END.test(object) || HOW.test(object) || (clause && clause.index < to.index)) return null;
  return { index: to.index };
}

/** A phrase of where, when or with whom that may follow what was done. */
const ADJUNCT =
  /\s+(?:on|at|in|during|for|with|after|before|from|while)\s+(?:my|our|the|a|an|this|that|last|his|her|their)\b/gi;

/**
 * Where a long object ends before the last phrase of where, when or with whom that leaves it short enough ("earned
 * $420 at the Downtown Farmers Market | on my most recent visit"); null when none does. `object` is the clause's
 * text after the verb, so the index is one in `rest` (a time inside counts among the words here).
 */
function adjunctEnd(object: string, tagger: SpanTagger): { index: number } | null {
  // "learned that taking breaks … are important": what was learned or said is a thought, not a thing done.
  if (/^\s*(?:that|whether|if|why|what)\b/i.test(object)) return null;
  let end: number | null = null;
  for (const m of object.matchAll(ADJUNCT)) {
    const head = object.slice(0, m.index);
    const words = wordCount(head);
    if (words > MAX_OBJECT_WORDS) break;
    if (words >= 2 && !OPEN_END.test(head) && !CLAUSE_END.test(head) && !dangling(head, tagger)) end = m.index;
  }
  return end === null ? null : { index: end };
}

/**
 * A cut object that stops inside another clause: at a verb ("focusing on the positive and relying", "teamed up", "the
 * right attitude to take"), or with a relative clause or a verb of being in it ("a screenplay that appeared").
 */
function dangling(head: string, tagger: SpanTagger): boolean {
  const words = head.toLowerCase().match(/[a-z'-]+/g) ?? [];
  const last = words.at(-1) ?? '';
  if (words.some((w) => /^(?:that|which|who|was|were|is|are)$/.test(w))) return true;
  if (/^(?:up|out|off|down|over|back|away|around)$/.test(last) || words.at(-2) === 'to') return true;
  const tags = tagger.lexicon(last);
  return /(?:ing|ed)$/.test(last) && !tags.includes('Noun') && !tags.includes('Adjective');
}

/**
 * Where a long object ends before a second verb of the same subject ("joined a fantasy literature forum | and had a
 * great talk about my fave books"): at the "and" (or "then") right before the sentence's next verb, of the same form
 * and tense, when what comes before it is an object that is not cut short. Null when the next verb does not follow so.
 */
function coordinatedEnd(rest: string, v: NlpVerb, verbs: readonly NlpVerb[]): { index: number } | null {
  const next = verbs.find((n) => n.start > v.end);
  // The second verb is told as the first is ("joined … and had …"): not a gerund of the object's own ("learned that
  // taking breaks and looking after myself …") nor a noun read as a verb ("a book with stories and sketches").
  if (!next || next.form !== v.form || next.tense !== v.tense) return null;
  const before = rest.slice(0, next.start - v.end);
  const and = /\s+(?:and(?:\s+then)?|then)\s+$/i.exec(before);
  if (!and) return null;
  const object = before.slice(0, and.index).trim();
  if (object === '' || OPEN_END.test(object) || CLAUSE_END.test(object)) return null;
  return { index: and.index };
}

/** Where the clause in `rest` ends (CLAUSE_END), past a comma between two adjectives ("a soft, pastel pink yarn"). */
function clauseEnd(rest: string, tagger: SpanTagger): { index: number } | null {
  let offset = 0;
  let m = CLAUSE_END.exec(rest);
  while (m && m[0].trim() === ',') {
    const comma = offset + m.index;
    const from = comma + m[0].length;
    if (!betweenAdjectives(rest, comma, from, tagger)) break;
    offset = from;
    m = CLAUSE_END.exec(rest.slice(offset));
  }
  return m ? { index: offset + m.index } : null;
}

/**
 * Whether the comma at `comma` (the next word at `from`) of `rest` stands between two adjectives of one noun phrase
 * ("using a soft, pastel pink yarn", once read as "using a soft"): a determiner and a word the lexicon knows only as
 * an adjective before it, and after it a word that goes on describing (an adjective, or a word the lexicon does not
 * know: "pastel") with more words after it. "I'm working on a novel, but …" is two clauses. Pure, with the lexicon.
 */
function betweenAdjectives(rest: string, comma: number, from: number, tagger: SpanTagger): boolean {
  const words = rest.slice(0, comma).trim().split(/\s+/);
  if (!DETERMINER.test(words.at(-2)?.toLowerCase() ?? '')) return false;
  const tags = tagger.lexicon(words.at(-1)?.toLowerCase() ?? '');
  if (!tags.includes('Adjective') || tags.some((t) => t === 'Noun' || t === 'Singular' || t === 'Plural')) return false;
  const after = /^\s*([a-z][\w'’-]*)\s+[a-z]/.exec(rest.slice(from))?.[1] ?? '';
  return after !== '' && tagger.lexicon(after).every((t) => t === 'Adjective');
}

/** "Since we (last) …" before a verb of talking: the conversation's own last time. */
const SINCE_LAST_TALK = /\bsince\s+(?:we|I)\s+(?:last\s+)?$/i;
const TALK_VERBS = new Set(['speak', 'talk', 'chat', 'catch', 'meet', 'see', 'hear']);

/** The speaker-subject of a clause that says how something felt: "feel like I", "felt as if we had". */
const FELT_LIKE =
  /\b(?:feel|feels|felt|feeling)\s+(?:like|as if|as though)\s+(?:I|we)(?:'d|'ve)?(?:\s+(?:had|have|was|were|just|really|truly|finally))*\s*$/i;

/**
 * A verb phrase that tells no event though compromise reads a past participle in it (MemoryBank): a guess ("I may be
 * easily influenced by others", "it might have been"), a present feeling or look ("I feel very discouraged", "it
 * looks finished"), or a judgement ("I found it very interesting", "very moving and inspiring", "hard to focus"). Pure.
 */
function notHappened(phrase: string, infinitive: string, object: string): boolean {
  return MODAL_START.test(phrase) || LINKING_START.test(phrase) || (infinitive === 'find' && JUDGED.test(object));
}

const MODAL_START = /^(?:may|might|could|would|should|must|can)\s/i;
const LINKING_START = /^(?:feel|feels|seem|seems|look|looks|sound|sounds)\s/i;
/** What one finds a thing: "it very interesting", "that hard to believe". */
const JUDGED =
  /^(?:it|that|this|them)\s+(?:(?:very|so|really|quite|pretty|super|extremely|incredibly|rather|truly|a bit|a little)\s+)*[a-z]+(?:\s+(?:and|but|yet)\s+(?:(?:very|so|really|quite|also)\s+)*[a-z]+)?(?:\s+to\s+.*)?$/i;

/** Words that make a time said after them rough: "about three weeks ago", "around last Easter". */
const ROUGHLY = /(?:about|around|roughly|approximately|nearly|almost|exactly|only|just)/;

/** Adverbs of a habit, or "used to" (a past habit), in or just before the verb phrase. */
const HABIT = /\b(?:always|usually|often|generally|normally|typically|used to)\b/i;
/** Adverbs between "be" and a participle ("I'm so excited"). */
const ADVERBS = String.raw`(?:\s+(?:so|really|very|super|just|finally|also|all|truly))*\s*`;
/** "I'm", "we're", "I am" right before the participle: a state now ("I'm so excited", "I'm done"). */
const PRESENT_BE_BEFORE = new RegExp(`(?:'m|'re|\\b(?:am|are|is))${ADVERBS}$`, 'i');
/** "I was", "we were" right before the participle. */
const PAST_BE_BEFORE = new RegExp(`\\b(?:was|were)${ADVERBS}$`, 'i');
/** What follows a feeling: "thrilled to see", "worried about", "glad that". */
const FEELING_OBJECT = /^(?:to\s+([a-z]+)|(?:about|that)\b)/i;

/**
 * A participle after "be" that tells how the speaker is or felt, not what they did: after a present "be" it is a
 * state ("I'm so excited to explore the nature", "I'm so pumped for the launch"); after a past one, a feeling when
 * a verb, "about" or "that" follows ("I was thrilled to see the ocean"), as after a dropped "I'm" ("Excited to see
 * what's next"). What was done to the speaker stays an
 * event ("I got accepted for a fashion internship", "I was promoted to manager").
 */
function feeling(input: {
  v: NlpVerb;
  /** The sentence before the verb phrase, and the phrase. */
  before: string;
  phrase: string;
  object: string;
  tagger: SpanTagger;
}): boolean {
  const { v, before, phrase, object, tagger } = input;
  if (v.tense !== 'past') return false;
  if (PRESENT_BE_BEFORE.test(before) || /^(?:am|are|is)\b/i.test(phrase)) return true;
  // "Excited to see what's next": a word the lexicon knows only as an adjective, its "I'm" dropped.
  const dropped = () =>
    NO_SUBJECT.test(before) && tagger.lexicon(phrase.split(/\s+/)[0]?.toLowerCase() ?? '').join() === 'Adjective';
  if (!PAST_BE_BEFORE.test(before) && !/^(?:was|were)\b/i.test(phrase) && !dropped()) return false;
  const m = FEELING_OBJECT.exec(object);
  if (!m) return false;
  const next = m[1]?.toLowerCase();
  return next === undefined || tagger.lexicon(next).includes('Infinitive');
}

/** The speaker's own sentence about themselves, in their words, relative times resolved; null for anything else. */
function observationOf(ctx: PatternContext, times: readonly ResolvedTime[]): ObservationFinding | null {
  const { s } = ctx;
  const text = s.text.trim();
  const opening = text.replace(/^(?:(?:hey|hi|well|so|oh|yeah|yep|wow)[,!.]?\s+)+/i, '');
  if (text.split(/\s+/).length < 6 || REACTION.test(opening) || !FIRST_PERSON.test(text) || SECOND_PERSON.test(text)) {
    return null;
  }
  let resolved = '';
  let last = 0;
  for (const t of times) {
    if (!t.label) continue;
    resolved += `${text.slice(last, t.to)} [${t.label}]`;
    last = t.to;
  }
  resolved += text.slice(last);
  const past = /\b(?:i|we)\s+(?:\w+\s+)?\w+ed\b/i.test(text) || times.length > 0;
  return {
    text: `${s.self}: ${resolved}`.slice(0, 500),
    importance: past ? 6 : 5,
    about: s.self,
    episodeId: s.episodeId,
    eventTime: times[0]?.eventTime ?? eventTimeOf(ctx.day),
  };
}
