/**
 * compromise's person/organization/place spans → name candidates, filtered hard: compromise guesses organizations
 * from suffixes ("Digital Marketing", "Corporate Team") and places from words like "Park" or "Street", and tags
 * brands, book characters and products as people. What survives:
 * - people: a word tagged as a first or last name (or two person-tagged words, one unknown to the lexicon: "Jay
 *   Chou"), no ordinary word after the name (leading role words such as "Director" are dropped), not a title of a work ("a game called …"), not an acronym;
 * - organizations: an organization word ("Labs", "Airlines", "Society" …), or one word compromise knows as a
 *   company, or several words none of which is an ordinary word;
 * - places: a city, country or region compromise knows, or several capitalized words after "in/to/from/at/visited/
 *   saw…" (ordinary words too when capitalized mid-sentence: "the Grand Canyon", "Fort Wayne").
 */
import type { NameCandidate } from './entities.js';
import type { Sentence } from './findings.js';
import { isAnyGazetteerForm } from './gazetteer.js';
import { TITLES } from './lexicon.js';
import { cleanName, isPlausibleName } from './names.js';
import { NOUN_TAGS, type NlpSpan, type NlpTerm, type SpanTagger } from './nlp.js';

const CONNECTOR = /^(?:of|for|and|the|de|&)$/;
const ORG_WORD =
  /\b(?:Labs?|Ventures|Capital|Partners|Inc|Corp|Corporation|LLC|Ltd|Technologies|Systems|Studios?|Foundation|Institute|University|College|Academy|Bank|Airlines|Airways|Society|Association|Company|Co|Hospital|Clinic|Agency|Council|Committee|Church|School|Museum|Orchestra|Press|Records|Motors|Pharmaceuticals|Insurance)\.?$/;
/** Tags that make a word a name rather than an ordinary word. */
const NAME_TAGS = new Set([
  'FirstName',
  'LastName',
  'Person',
  'Place',
  'City',
  'Country',
  'Region',
  'Organization',
  'ProperNoun',
]);
/** Ordinary words compromise's small lexicon lacks but that capitalized headings and product names are made of. */
const ORDINARY = new Set(
  'digital marketing business administration management research science systems content senior team group office power energy museum art modern natural history contemporary agency center club month body face clean american national international global general public private social media data design studio program project school department committee council society association development assessment corporate sustainable veggie containers trail trailhead wilderness canyon valley falls lake mountain river beach park skincare chronograph watch velvet blue red green black white gold silver ultimate preferred premium pro plus edition series collection kit set bundle pack box cafe coffee pizza burger bar grill kitchen restaurant hotel inn spa resort market store shop mall plaza square street avenue road district downtown uptown north south east west central eastern western northern southern upper lower grand great big little old new first second final'.split(
    ' ',
  ),
);

export function titled(title: string): string {
  return TITLES[title.toLowerCase()] ?? title.toLowerCase();
}

/** A title as written before a name: "Professor", "Dr.", "Mrs."; a word that is no abbreviation takes no point. */
export function titleWord(title: string): string {
  if (title === 'professor') return 'Professor';
  if (title === 'doctor') return 'Dr.';
  const word = `${title.charAt(0).toUpperCase()}${title.slice(1)}`;
  return /^(?:mr|mrs|ms)$/.test(title) ? `${word}.` : word;
}

/** Whether `index` of `text` falls inside double quotes (a title of a work: "The Marvelous Mrs. Maisel"). */
export function insideQuotes(text: string, index: number): boolean {
  return (text.slice(0, index).match(/["“”]/g) ?? []).length % 2 === 1;
}

/** Lexicon classes that never belong in a person's name ("Trader", "Ultimate", "All"). */
const NOT_IN_NAMES = new Set([
  'Adjective',
  'Actor',
  'Plural',
  'Gerund',
  'Determiner',
  'Preposition',
  'Conjunction',
  'Adverb',
  'Value',
]);

/**
 * An ordinary English word, as far as compromise's lexicon and the list above can tell. `strict`: only words that
 * cannot be part of a person's name (compromise's lexicon lists "maya" and "park" as nouns).
 */
function ordinary(word: string, tagger: SpanTagger, strict = false): boolean {
  const lower = word.toLowerCase().replace(/[^\p{L}-]/gu, '');
  if (ORDINARY.has(lower)) return true;
  const tags = tagger.lexicon(lower);
  if (tags.some((t) => NAME_TAGS.has(t))) return false;
  return strict ? tags.some((t) => NOT_IN_NAMES.has(t)) : tags.length > 0;
}

/** A word compromise's lexicon knows as a place ("California" is not a last name). */
function placeWord(word: string, tagger: SpanTagger): boolean {
  return tagger.lexicon(word).some((t) => t === 'Place' || t === 'City' || t === 'Country' || t === 'Region');
}

interface SpanWords {
  terms: NlpTerm[];
  title: string | null;
}

/** The capitalized terms of a span (connectors kept inside), with a title pulled out. */
function spanWords(span: NlpSpan): SpanWords {
  let title: string | null = null;
  const terms: NlpTerm[] = [];
  for (const term of span.terms) {
    if (term.tags.includes('Honorific') || TITLES[term.text.toLowerCase()]) {
      title = titled(term.text);
      continue;
    }
    if (!/^[\p{Lu}\p{N}]/u.test(term.text)) {
      if (terms.length > 0 && CONNECTOR.test(term.text)) terms.push(term);
      else if (terms.length > 0) break;
      continue;
    }
    terms.push(term);
  }
  while (terms.length > 0 && CONNECTOR.test(terms[terms.length - 1]?.text ?? '')) terms.pop();
  return { terms, title };
}

const isNamed = (t: NlpTerm): boolean => t.tags.includes('FirstName') || t.tags.includes('LastName');

function personName(words: SpanWords, tagger: SpanTagger): string | null {
  const terms = [...words.terms];
  const multi = terms.length > 1;
  while (terms.length > 1 && !isNamed(terms[0] as NlpTerm) && ordinary(terms[0]?.text ?? '', tagger, true)) {
    // A role before a name is dropped ("Director Kim Budil"); any other word makes the rest part of a longer name
    // ("Super Mario Advance").
    if (!tagger.lexicon(terms[0]?.text ?? '').includes('Actor') && terms.length > 2) return null;
    terms.shift();
  }
  if (terms.length === 0 || terms.some((t) => CONNECTOR.test(t.text))) return null;
  // A number after the name is not part of it ("I met Sarah 2 days ago"); a word with digits in it is not a
  // person's: "Marshall MG30" is an amp.
  while (terms.length > 1 && /^\p{N}+$/u.test(terms.at(-1)?.text ?? '')) terms.pop();
  if (terms.some((t) => /\p{N}/u.test(t.text))) return null;
  if (terms.slice(1).some((t) => ordinary(t.text, tagger, true) || placeWord(t.text, tagger))) return null;
  if (terms.length > 1 && isAnyGazetteerForm(terms[0]?.text ?? '')) return null;
  if (multi && terms.length === 1 && !words.title) return null;
  const name = cleanName(terms.map((t) => t.text).join(' '));
  if (/^[A-Z]{2,}$/.test(name)) return null;
  if (words.title) return terms.length === 1 && ordinary(name, tagger, true) ? null : name;
  if (terms.length === 1) return terms[0]?.tags.includes('FirstName') ? name : null;
  return terms.some(isNamed) || unlistedPerson(terms, tagger) ? name : null;
}

/**
 * Two words compromise reads as a person's name though its lists have neither as a first or last name, one of them
 * a word its lexicon does not know at all ("Jay Chou", "Kenji Tanaka"): names from outside its lists are still names.
 */
function unlistedPerson(terms: readonly NlpTerm[], tagger: SpanTagger): boolean {
  return (
    terms.length === 2 &&
    terms.every((t) => t.tags.includes('Person')) &&
    terms.some((t) => tagger.lexicon(t.text.replace(/['’]s$/i, '')).length === 0)
  );
}

/**
 * Whether the name's words are only part of a longer proper name the tagger cut: a capitalized word right after
 * them ("Downtown Farmers Market", "Summer Solstice Fair", "King Family Vineyards") or, mid-sentence, right before
 * them, "of" or "the" between ("Super Mario Advance", "The Legend of Zelda"). A day or a month after a name is no
 * part of it ("I saw Caroline Tuesday"), nor a word after a possessive ("Octavia Butler's Parable").
 */
function partOfLongerName(span: NlpSpan, terms: readonly NlpTerm[], text: string, tagger: SpanTagger): boolean {
  // The span's own first word, a title included ("President Kennedy"); the name's last word.
  const first = span.terms[0];
  const last = terms.at(-1);
  if (!first || !last) return false;
  const end = last.start + last.length;
  const next = /^\s+(\p{Lu}[\p{L}'’-]*)/u.exec(text.slice(end))?.[1];
  const calendar = (w: string) => tagger.lexicon(w.replace(/['’]s$/, '')).some((t) => t === 'WeekDay' || t === 'Month');
  if (next && next !== 'I' && !/['’]s$/.test(last.text) && !calendar(next)) return true;
  // A model code next to it ("Canon EOS 5D Mark IV", "Marshall MG30"): a product's name.
  const around = [
    /(\S+)\s+$/u.exec(text.slice(0, first.start))?.[1],
    /^\s+(\S+?)[,.!?;:]?(?:\s|$)/u.exec(text.slice(end))?.[1],
  ];
  if (around.some((w) => w !== undefined && MODEL_CODE.test(w))) return true;
  // The word before the capitalized one ends in a letter: the capital is mid-clause, not a sentence's or clause's start.
  const prior = /(\S+)\s+(\p{Lu}[\p{L}'’-]*)\s+(?:(?:of|the|de)\s+)?$/u.exec(text.slice(0, first.start));
  const word = prior?.[2] ?? '';
  return prior !== null && /[\p{L}\p{N}]$/u.test(prior[1] ?? '') && word !== 'I' && !TITLES[word.toLowerCase()];
}

/** A model code: one word of capitals and digits, with letters or hyphens ("5D", "MG30", "20TM"). */
const MODEL_CODE = /^(?=[\p{L}-]*\p{N})(?=[\p{N}-]*\p{Lu})[\p{L}\p{N}-]+$/u;

/**
 * The surname the tagger left out of a first name, said in the possessive right after it ("Julien Baker's music",
 * "Phoebe Bridgers' songs"): the word is the person's, not the start of a longer name. Null when there is none.
 */
function possessiveSurname(terms: readonly NlpTerm[], text: string): string | null {
  const last = terms.at(-1);
  if (!last) return null;
  return (
    /^\s+(\p{Lu}[\p{Ll}-]+)(?:['’]s|['’])(?=[\s,.!?;:]|$)/u.exec(text.slice(last.start + last.length))?.[1] ?? null
  );
}

/** A possessive determiner, and up to three words, before a name: "my old ", "a pair of gently used ". */
const OWNED_BEFORE = /\b(?:my|your|our|his|her|their|pair of)\s+(?:[\w-]+\s+){0,3}$/i;

/**
 * A person span that is a thing's brand: after "my" (or "a pair of") and before a common noun in lower case, with
 * nothing between ("my 1952 Topps Mickey Mantle baseball card"). "my friend Sarah said" is a person: "said" is no noun.
 */
function ownedThing(span: NlpSpan, text: string, tagger: SpanTagger): boolean {
  const before = text.slice(Math.max(0, span.start - 48), span.start);
  if (describedOwned(before, tagger)) return true;
  const next = span.next;
  if (!next || !/^\p{Ll}/u.test(next.text) || !next.tags.includes('Noun')) return false;
  if (next.tags.some((t) => t === 'Pronoun' || t === 'Date' || t === 'Person' || t === 'Verb')) return false;
  return OWNED_BEFORE.test(before);
}

/** A possessive determiner and up to three words before a name; the last word is the one right before it. */
const OWNED_WORD_BEFORE = /\b(?:my|your|our)\s+(?:[\w-]+\s+){0,2}?([\w-]+)\s+$/i;
/** Adjectives said of one's own people and pets ("my dear Sarah", "my little Emma", "my late Grandpa Joe"). */
const ENDEARING = new Set(['dear', 'sweet', 'little', 'beloved', 'late', 'lovely', 'poor', 'darling', 'beautiful']);

/**
 * A name after "my" and an adjective of a thing, with no word for a person between: "my old Converse Chuck Taylor's",
 * "my new Sony", "my black Adidas" (LongMemEval S dev30). One's people come with a word for who they are ("my friend
 * Rachel", "my brother John": compromise files those as actors) or an endearment ("my dear Sarah").
 */
function describedOwned(before: string, tagger: SpanTagger): boolean {
  const word = OWNED_WORD_BEFORE.exec(before)?.[1]?.toLowerCase();
  if (word === undefined || ENDEARING.has(word)) return false;
  const tags = tagger.lexicon(word);
  return tags.includes('Adjective') && !tags.includes('Actor');
}

/** The titles before a person's name ("Dr. Patel", "Professor Lee"), as a regular-expression group. */
export const TITLE_WORDS = String.raw`(?:Professor|Prof\.?|Dr\.?|Doctor|Mr\.?|Mrs\.?|Ms\.?|Dean)`;
const TITLE_AT = new RegExp(String.raw`^${TITLE_WORDS}\s`);
const TITLE_BEFORE = new RegExp(String.raw`\b${TITLE_WORDS}\s+$`);

/** Whether a title stands right before `index` ("Dr. |Martens"): the name there is the titled name's rest. */
export function afterTitle(text: string, index: number): boolean {
  return TITLE_BEFORE.test(text.slice(Math.max(0, index - 12), index));
}

/**
 * A titled name ("Dr. Martens") at [start, end) that is a thing's brand: after "a pair of", or after "my" and before
 * a lower-case word the lexicon files as a noun or does not know ("my Dr. Martens boots"), as ownedThing reads spans.
 */
export function titledBrand(text: string, start: number, end: number, tagger: SpanTagger | null): boolean {
  // The title opens the name, or comes just before it (a tagger span may leave it out).
  const leading = TITLE_BEFORE.exec(text.slice(Math.max(0, start - 12), start))?.[0] ?? '';
  if (leading === '' && !TITLE_AT.test(text.slice(start, end))) return false;
  const from = start - leading.length;
  const before = text.slice(Math.max(0, from - 48), from);
  if (/\bpair\s+of\s+(?:[\w-]+\s+){0,3}$/i.test(before)) return true;
  if (!tagger || !OWNED_BEFORE.test(before)) return false;
  const next = /^\s+(\p{Ll}[\p{Ll}-]*)(?=[\s,.!?;:]|$)/u.exec(text.slice(end))?.[1];
  if (next === undefined) return false;
  const tags = tagger.lexicon(next);
  return tags.length === 0 || tags.some((t) => NOUN_TAGS.includes(t));
}

/** Ends with a saint's title: "St. ", "Saint ", "Santa ", "San ", "São ". */
const SAINT = /(?:^|\s)(?:St\.?|Saint|Santa|Santo|San|S[ãa]o|Ste\.?)\s+$/;

export function spanCandidate(span: NlpSpan, sentence: Sentence, tagger: SpanTagger): NameCandidate | null {
  const words = spanWords(span);
  const raw = cleanName(words.terms.map((t) => t.text).join(' '));
  if (!isPlausibleName(raw)) return null;
  const surname =
    span.kind === 'person' && words.terms.length === 1 ? possessiveSurname(words.terms, sentence.text) : null;
  if (!surname && span.kind !== 'organization' && partOfLongerName(span, words.terms, sentence.text, tagger))
    return null;
  const before = sentence.text.slice(Math.max(0, span.start - 12), span.start);
  // Titles of works ("Kingkiller Chronicle", "a game called Apex Legends") are not people, places or companies.
  if (/(?:\bcalled|\bnamed)\s*$/i.test(before)) return null;
  if (insideQuotes(sentence.text, span.start)) return null;
  const base = { aliases: [], episodeId: sentence.episodeId, self: sentence.self };
  const multi = words.terms.length > 1;
  const allCapitalized = span.terms.every((t) => /^[\p{Lu}\p{N}]/u.test(t.text) || CONNECTOR.test(t.text));
  const plain = words.terms.filter((t) => !CONNECTOR.test(t.text)).every((t) => !ordinary(t.text, tagger));
  if (span.kind === 'person' || (span.kind === 'place' && multi && isNamed(words.terms[0] as NlpTerm))) {
    // A person's name takes no definite article: "the Harmony Sofa", "the Fossil Grant" name things.
    if (/\bthe\s+$/i.test(before) && span.kind === 'person') return null;
    // A name that qualifies a thing one has ("my Pearl Izumi cycling gloves", "my Dr. Martens boots") is a brand's.
    if (span.kind === 'person' && ownedThing(span, sentence.text, tagger)) return null;
    // What is played is a game or a part ("playing Mario Kart on my Game Boy", "I played Puck"), not a person.
    if (span.kind === 'person' && /\bplay(?:s|ed|ing)?\s+$/i.test(before)) return null;
    if (span.kind === 'person' && titledBrand(sentence.text, span.start, span.end, tagger)) return null;
    // A saint's name is a church's, a school's or a place's ("St. Mary's Church", "Santa Teresa").
    if (span.kind === 'person' && (SAINT.test(before) || SAINT.test(`${words.terms[0]?.text ?? ''} `))) return null;
    const first = personName(words, tagger);
    if (!first) return null;
    const name = surname ? `${first} ${surname}` : first;
    const single = !name.includes(' ');
    return {
      ...base,
      name: words.title && single ? `${titleWord(words.title)} ${name}` : name,
      type: 'person',
      state: words.title ? { title: words.title } : {},
      strength: 2,
    };
  }
  if (!allCapitalized || / and /.test(raw)) return null;
  if (span.kind === 'organization') {
    // "an Art Academy for kids", "a Facebook Group.": a kind of thing, not one named ("a Dell XPS", "a NBA game" name one).
    const modifies = span.next?.tags.some((t) => t !== 'Preposition' && t !== 'Conjunction') ?? false;
    if (/\b(?:a|an)\s+$/i.test(before) && !modifies) return null;
    const known = !multi && tagger.lexicon(raw).includes('Organization');
    if (!(ORG_WORD.test(raw) && multi) && !known && !(multi && plain)) return null;
    return { ...base, name: raw, type: 'organization', state: {}, strength: 1 };
  }
  const subtype = span.terms.some((t) => t.tags.some((tag) => tag === 'City' || tag === 'Country' || tag === 'Region'));
  const locative =
    /\b(?:in|to|from|near|visiting|visited|visit|at|saw|see|explored|explore|hiked|climbed)\s+(?:the\s+)?$/i.test(
      before,
    );
  // Ordinary words capitalized mid-sentence after a place word are a place's name ("the Grand Canyon", "Fort Wayne",
  // "the Cliffs of Moher"); at the start of a sentence the capital says nothing.
  const mid = sentence.text.slice(0, span.start).trim().length > 0;
  if (!subtype && !(multi && locative && (plain || mid))) return null;
  if (!multi && raw.length < 4) return null;
  return { ...base, name: raw, type: 'place', state: {}, strength: 1 };
}
