/**
 * Words around a verb that frame the sentence rather than tell something that happened: a phrase the sentence
 * opens with ("Given all of the above, write me …", "Being surrounded by teammates … creates a strong bond") and a
 * clause after "as" with nothing to act on ("as we discussed earlier"). eventOf (personal.ts) reads no event from a verb
 * inside them. Pure, with compromise's lexicon through the tagger.
 */
import type { NlpVerb, SpanTagger } from '../nlp.js';

/**
 * The verb is inside a gerund phrase that is the sentence's subject, whose own verb follows in the object: "Being
 * surrounded by teammates who are equally passionate creates a strong bond", "Knowing I'm helping makes it all worth
 * it" (LoCoMo 1–5: each had been an event). The sentence opens with the gerund and no comma comes before the verb;
 * the object holds a verb in the third person ("creates", "makes", "is", "was").
 */
export function insideGerundSubject(
  text: string,
  before: string,
  words: readonly string[],
  tagger: SpanTagger,
): boolean {
  // "Speaking of loyalty programs, I've been using …": an opening phrase, then the clause's own subject.
  if (!/^\s*[A-Z][a-z]+ing\b/.test(text) || before.includes(',')) return false;
  return words.some((w) => {
    const lower = w.toLowerCase();
    if (lower === 'is' || lower === 'was') return true;
    const tags = tagger.lexicon(lower);
    return /[a-z]s$/.test(lower) && tags.length === 1 && tags[0] === 'PresentTense';
  });
}

/** The participle at the verb, after adverbs, and the preposition right after it, if any. */
const PARTICIPLE_OPENING =
  /^(?:(?:just|finally|recently|also|actually|really|already)\s+)*([a-z]+)\b(\s+(?:on|upon|by|to|with|of|from|about|in)\b)?/i;

/** What may open the clause after an opening phrase's comma: a subject, a question word, or a request. */
const CLAUSE_OPENER =
  /^\s*(?:I|we|you|he|she|they|it|there|this|that|what|which|how|why|when|where|who|can|could|would|will|please|let)\b/i;

/**
 * A subjectless participle that opens the sentence and whose phrase ends at a comma before a clause of its own:
 * "Given all of the above, write me a Meta Title", "Based on the above answer, what should I do?", "Inspired by her
 * talk, I signed up". Chat drops the subject of a past verb ("Went to the park, had a picnic"), so the word must be
 * one the lexicon files as a participle ("given", "taken"), or as no simple past before a preposition ("based on",
 * "inspired by"), and what follows the comma must open a clause (CLAUSE_OPENER, or a verb's bare form: a request)
 * rather than go on with another past verb.
 */
export function openingParticiple(text: string, v: Pick<NlpVerb, 'start'>, tagger: SpanTagger): boolean {
  const opening = PARTICIPLE_OPENING.exec(text.slice(v.start));
  const word = opening?.[1]?.toLowerCase() ?? '';
  const tags = tagger.lexicon(word);
  if (!opening || tags.includes('PastTense')) return false;
  // "Given …", "Taken together, …"; a word the lexicon reads as an adjective only before a preposition ("Based on",
  // "Inspired by"): "Finished the book, it was great" is a past with its subject dropped.
  if (!tags.includes('Participle') && opening[2] === undefined) return false;
  const phrase = /^[^,.!?;]*,/.exec(text.slice(v.start));
  if (!phrase) return false;
  const after = text.slice(v.start + phrase[0].length);
  if (CLAUSE_OPENER.test(after)) return true;
  const next = /^\s*([a-z]+)\b/i.exec(after)?.[1]?.toLowerCase() ?? '';
  const nextTags = tagger.lexicon(next);
  return nextTags.includes('Infinitive') && !nextTags.includes('PastTense');
}

/** "as we discussed", "as I mentioned before", "as you've suggested": the verb's subject after "as". */
const AS_SUBJECT = /\bas\s+(?:I|we|you)(?:'ve|'d)?(?:\s+(?:have|had|just|already|previously|briefly|also))*\s*$/i;
/**
 * Lexicon tags of words that name no thing ("before", "earlier", "longer"). compromise files a word under its most
 * specific tag (an "Actor", a "Month", a "FirstName"), so what is not one of these may be a thing.
 */
const NO_THING_TAGS = new Set(['Adverb', 'Conjunction', 'Preposition', 'Superlative', 'Comparative']);

/**
 * A clause after "as" whose verb acts on nothing ("as we discussed earlier", "as I mentioned", "as I've gotten
 * older"): it frames the sentence and tells no event. Only words such as "earlier", "before" or "older" may follow
 * the verb (actsOnNothing); "As I walked home, I saw a fox" keeps its object and is left alone.
 */
export function bareAsClause(before: string, words: readonly string[], tagger: SpanTagger): boolean {
  return AS_SUBJECT.test(before) && actsOnNothing(words, tagger);
}

/**
 * Whether an object is no thing at all: the lexicon files each of its words as an adverb, a conjunction, a
 * preposition or a comparison ("before", "earlier", "longer"; "previously" by its "-ly"), so the verb acts on nothing
 * ("I've tried before").
 */
export function actsOnNothing(words: readonly string[], tagger: SpanTagger): boolean {
  return words.every((w) => {
    const tags = tagger.lexicon(w.toLowerCase().replace(/[^a-z'-]/g, ''));
    // A word the lexicon does not know counts as an adverb only by its "-ly" ("previously"; not "Shutterfly").
    return tags.length > 0 ? tags.every((t) => NO_THING_TAGS.has(t)) : /^[a-z]+ly$/.test(w);
  });
}
