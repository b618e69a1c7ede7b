/**
 * Relative clauses before an event's verb: whether the words before the speaker-subject name a thing the clause
 * describes ("the help I got from friends": no event), or a noun the clause tells an event about ("recovering from a
 * sunburn I got during my beach trip": got a sunburn). Pure, with compromise's lexicon through the tagger.
 */
import { NOUN_TAGS, type SpanTagger } from '../nlp.js';

/** The speaker as the clause's subject, with the auxiliaries and adverbs chat puts between it and the verb. */
export const SUBJECT_BEFORE =
  /\b(?:i|we)(?:'m|'ve|'re|'d|'ll)?(?:\s+(?:am|are|was|were|have|has|had|been|just|finally|recently|also|actually|really|even|already|eventually|then|first|all))*\s*$/i;
/**
 * The words before the speaker-subject name what the clause is about, so it describes a thing rather than tells an
 * event: "these figurines I bought yesterday remind me…", "the help I got from friends", "a show I went to", "one I
 * did last week", "everything I learned". A determiner and up to two words before a noun head, not after a
 * preposition ("in the summer I went" is a time, not a thing), or a pronoun that stands for the thing.
 */
const RELATIVE_HEAD =
  /(?:^|[^\w\s'’]\s*|\b(?!(?:in|at|on|for|during|over|by|from|after|before|since|until|through|throughout|of|with)\s)[a-z]+\s+)(?:the|a|an|this|these|that|those|my|our|your|his|her|their|some|any|every|each|all the|all of the)\s+(?:[\w'’-]+\s+(?:and\s+)?){0,2}([a-z\d][\w'’-]*)\s*$|\b(?:one|ones|something|anything|everything|nothing|what|whatever|which)\s*$/i;
/**
 * A noun phrase after a preposition that hangs on a verb or adjective before it, right before the speaker-subject:
 * "recovering from a sunburn I got", "came from a trip I took to Tibet", "waiting on a car cover I ordered from
 * Amazon". The clause that follows is a relative clause about that noun, so the noun phrase is the event's object
 * ("Took a trip to Tibet"); so does one after a noun ("recipe ideas for a dinner party I'm hosting next week": the
 * plan is hosting the party). The same words opening a clause are a time or a scene ("after the game I went out", "at
 * the party I met Sam") and are left alone, as is a new clause ("walking in my neighborhood when I came across …").
 */
const PREPOSITION_HEAD =
  /\b([a-z]+)\s+(?:in|at|on|for|during|over|by|from|after|before|since|until|through|throughout|of|with|about)\s+((?:the|a|an|this|that|those|these|my|our|his|her|their|some)\s+(?:[\w'’-]+\s+){0,3}?([a-z][\w'’-]*))\s*$/i;
const CLAUSE_WORD =
  /^(?:when|where|while|whereas|as|and|but|or|so|because|that|which|who|if|since|until|before|after|then|once)$/i;
/** What may follow the verb of such a relative clause: where, to where, from where, for what. */
export const HUNG_REST = /^(?:to|in|at|on|from|for|during|with|by|over|through|into|around|near|across)\s/i;

export function hungNoun(before: string, tagger: SpanTagger): string | null {
  const head = beforeSubject(before);
  const m = head === null ? null : PREPOSITION_HEAD.exec(head);
  const [, word = '', phrase = '', noun = ''] = m ?? [];
  if (!m || !headNoun(noun, tagger)) return null;
  const tags = tagger.lexicon(word.toLowerCase());
  // A verb's particle hangs the phrase on the verb too ("got back from a trip I took to Tibet"), and a noun on the noun
  // ("recipe ideas for a dinner party I'm hosting next week"); a time's noun sets a scene ("that day at the beach I").
  const particle = /^(?:back|away|home|out)$/i.test(word);
  const onNoun =
    !TIME_HEAD.test(word) && (tags.some((t) => NOUN_TAGS.includes(t)) || (tags.length === 0 && /[a-z]s$/i.test(word)));
  // A past the lexicon does not know hangs it as a known one does ("skyped with that fan I met in CA").
  const hangs =
    particle ||
    onNoun ||
    /ing$/i.test(word) ||
    (tags.length === 0 && /[a-z]ed$/i.test(word)) ||
    tags.some((t) => t === 'Adjective' || t === 'PastTense' || t === 'Infinitive');
  return hangs ? phrase : null;
}

/** Head nouns of a time phrase before the subject ("this morning I went", "the whole time I was there"). */
const TIME_HEAD =
  /^(?:morning|afternoon|evening|night|tonight|today|yesterday|day|days|week|weeks|weekend|weekends|month|months|year|years|summer|winter|spring|autumn|fall|semester|season|time|times|moment|while)$/i;
/** Tags (compromise's lexicon) of a last word that is no noun a clause could describe ("my kids and I", "asleep"). */
const NOT_HEAD_TAGS = ['Conjunction', 'Preposition', 'Adverb', 'Adjective', 'Verb', 'Duration', 'Date', 'Pronoun'];
/** The clause's subject follows a thing it describes ("the help I got", "one I did"): see RELATIVE_HEAD. */
export function describesThing(before: string, tagger: SpanTagger): boolean {
  const head = beforeSubject(before);
  if (head === null) return false;
  const m = RELATIVE_HEAD.exec(head);
  if (!m) return pluralHead(head, tagger);
  const word = m[1];
  if (word === undefined) return true;
  if (TIME_HEAD.test(word)) return false;
  const tags = tagger.lexicon(word.toLowerCase());
  return !tags.some((t) => NOT_HEAD_TAGS.includes(t));
}

/** A plural noun with no determiner, then "that" or "which": "and other materials that I've accumulated". */
const PLURAL_THAT = /(?<!\b(?:it|he|she|this|that|which|who|one)\s+)\b([a-z][\w'’-]*[^s'’\W]s),?\s+(?:that|which)\s*$/i;
/** Lexicon tags of a word ending in "s" that is no plural noun ("says", "always", "glass"). */
const NOT_PLURAL_TAGS = [...NOT_HEAD_TAGS, 'PresentTense', 'Infinitive', 'Uncountable', 'Singular'];

/**
 * "canvases, paints, markers, and other materials that I've accumulated over the years": a plural noun before "that"
 * or "which" and the speaker-subject heads a relative clause about things, as a determiner's phrase does. Not after a
 * subject pronoun, where such a word is a verb ("it shows that I", which the lexicon files as a plural).
 */
function pluralHead(head: string, tagger: SpanTagger): boolean {
  const word = PLURAL_THAT.exec(head)?.[1];
  if (word === undefined || TIME_HEAD.test(word)) return false;
  return !tagger.lexicon(word.toLowerCase()).some((t) => NOT_PLURAL_TAGS.includes(t));
}

/**
 * A noun phrase the clause after it is about, joined by "which" or "that": "my new backpack, which I bought three
 * weeks ago", "the tea set that I lent to my sister last month". With a time of its own the clause tells an event
 * about the thing ("Bought my new backpack"), which eventOf checks; the phrase is a determiner and up to four words
 * ending in a noun. Null when the words before the speaker-subject are not such a phrase.
 */
export function relativeHead(before: string, tagger: SpanTagger): string | null {
  const head = beforeSubject(before);
  const m = head === null ? null : WHICH_HEAD.exec(head);
  const [, phrase = '', noun = ''] = m ?? [];
  if (!m || !headNoun(noun, tagger)) return null;
  // A comma only between two adjectives ("a soft, pastel pink yarn"), not after a phrase ("By the way, I've been").
  const beforeComma = /([\w'’-]+),/.exec(phrase)?.[1];
  return beforeComma === undefined || tagger.lexicon(beforeComma.toLowerCase()).includes('Adjective') ? phrase : null;
}

/** The words before the speaker-subject that ends `before` (SUBJECT_BEFORE); null when it ends with none. */
function beforeSubject(before: string): string | null {
  const head = before.replace(SUBJECT_BEFORE, '');
  return head === before ? null : head;
}

/**
 * Whether a word can head the noun phrase a clause tells about: no clause word, no time ("this morning I went"), and
 * nothing compromise's lexicon files as no noun (NOT_HEAD_TAGS).
 */
function headNoun(noun: string, tagger: SpanTagger): boolean {
  if (CLAUSE_WORD.test(noun) || TIME_HEAD.test(noun)) return false;
  return !tagger.lexicon(noun.toLowerCase()).some((t) => NOT_HEAD_TAGS.includes(t));
}

const WHICH_HEAD =
  /\b((?:the|a|an|this|these|those|my|our|his|her|their|some)\s+(?:[\w'’-]+,?\s+){0,3}?([a-z][\w'’-]*)),?\s+(?:which|that)\s*$/i;

/**
 * What may follow the verb of a clause about such a thing: nothing, or a few words that are not another object
 * ("online", "from Amazon", "to my sister"): "the store that I bought shoes at" is about the store, not the shoes.
 */
export const RELATIVE_REST =
  /^(?:|(?!(?:the|a|an|my|our|your|his|her|their|it|them|him|this|that|these|those|some)\b)(?!(?!during\b)[a-z]+ing\b)[a-z][\w'’-]*(?:\s+[\w'’-]+){0,5})$/i;
