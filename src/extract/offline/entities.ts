/**
 * Discovery of people, organizations and places in user sentences: compromise's tagged spans (filtered hard for
 * precision) plus patterns ("my sister Nora", "Professor Daniel Okafor", "I work at Acme Labs", "I moved to Boston").
 */
import type { DiscoveredName, Registry } from './registry.js';
import type { EntityFinding, RelationshipFinding, Sentence } from './findings.js';
import type { SpanTagger } from './nlp.js';
import { afterTitle, insideQuotes, spanCandidate, titled, titledBrand, TITLE_WORDS, titleWord } from './spans.js';
import { normalizeRelation, RELATION_NOUNS, relationEdge } from './lexicon.js';
import { cleanName, isPlausibleName, nameRun, personRun } from './names.js';

export type NameKind = 'person' | 'organization' | 'place';

export interface NameCandidate {
  name: string;
  type: NameKind;
  aliases: string[];
  state: Record<string, string>;
  /** Higher wins when two kinds claim the same name. */
  strength: number;
  episodeId: string;
  /** "my sister Nora": a relationship with the sentence's self. */
  relation?: string;
  self: string;
}

const RELATION_WORDS = Object.keys(RELATION_NOUNS)
  .sort((a, b) => b.length - a.length)
  .map((w) => w.replace(/[-\s]/g, '[-\\s]?'))
  .join('|');
const RELATION_NAME = new RegExp(`\\b(?:[Mm]y|[Oo]ur)\\s+(${RELATION_WORDS})\\s*,?\\s+(${nameRun(3)})`, 'gu');
const RELATION_ENDING = /\b(?:broke up|split up|separated|divorced|divorcing|breaking up)(?:\s+(?:with|from))?\s*$/i;
const TITLE_NAME = new RegExp(`\\b(${TITLE_WORDS})\\s+(${personRun(3)})`, 'gu');
const ORG_WORDS =
  /\b(?:Labs?|Ventures|Capital|Partners|Inc|Corp|LLC|Ltd|Technologies|Systems|Studios?|Group|Foundation|Institute|University|College|Academy|Bank)\.?$/;
const PERSON_APPOSITIVE = new RegExp(
  `(${nameRun(3)}),\\s+(?:a|an|the|my|our)\\s+(?:[\\w-]+\\s+){0,2}?(?:partner|founder|co-founder|ceo|cto|investor|professor|student|friend|engineer|designer|researcher|manager|director|recruiter|advisor|mentor|colleague|classmate|roommate|teammate|intern)\\b`,
  'gu',
);
const PERSON_LIST = `${personRun(3)}(?:\\s*,\\s*${personRun(3)})*(?:,?\\s+and\\s+${personRun(3)})?`;
const PERSON_VERB = new RegExp(
  `\\b(?:met|met with|talked to|talked with|spoke to|spoke with|emailed|texted|messaged|hired|introduced me to|dinner with|coffee with|lunch with)\\s+(${PERSON_LIST})`,
  'gu',
);
const PERSON_JOINED = new RegExp(
  `(${personRun(3)})\\s+(?:has\\s+|just\\s+|officially\\s+|finally\\s+)*joined\\s+(?:us\\s+|the\\s+team\\s+)?as\\b`,
  'gu',
);
const PERSON_IS_MY = new RegExp(
  `(${personRun(3)})\\s+is\\s+(?:now\\s+)?(?:my|our)\\s+(?:${Object.keys(RELATION_NOUNS).join('|')}|CEO|CTO|COO|CFO)\\b`,
  'gu',
);
const AND_I = new RegExp(`(?:^|[.;:!?]\\s+|\\b(?:and|but|so|then)\\s+)(${personRun(2)})\\s+and\\s+I\\b`, 'gu');
/**
 * An institution named with "of": "the Museum of Contemporary Art", "the National Association of Watch and Clock
 * Collectors", "the Children's Museum of Chicago"; the words after "of" are capitalized (connectors between), up to a
 * possessive ("the Metropolitan Museum of Art's collection"); one with a comma after it ("the University of
 * California, Los Angeles") is left whole to the other rules.
 */
const ORG_OF = new RegExp(
  String.raw`\b((?:[A-Z][\w'’-]*\s+){0,3}(?:Museum|University|Institute|Association|Society|Academy|College|Council|Foundation|Federation|Bank|School|Church|Hospital|Library|Department|Ministry)\s+of\s+(?:the\s+)?(?!I\b)[A-Z][\w-]*(?:\s+(?:(?:and|&|of|for|the)\s+)?(?!I\b)[A-Z][\w-]*){0,4})(?![\w-]|,\s*[A-Z])`,
  'gu',
);
const ORG_CONTEXT = new RegExp(
  `\\b(?:work(?:s|ed|ing)?|intern(?:s|ed|ing)?|internship|job|offer|position|role|employed|hired|engineer|researcher|scientist|intern|student|studying|enrolled|professor|partner|founder|ceo|cto|manager|analyst)\\s+(?:[a-z]+\\s+){0,3}?(?:at|from)\\s+(${nameRun(5)})`,
  'gu',
);
const APPLY_TO = new RegExp(
  `\\b(?:applying|applied|apply|accepted|admitted|transferring|transferred)\\s+(?:early\\s+(?:action|decision)\\s+|regular\\s+decision\\s+)?(?:to|into|at)\\s+(${nameRun(4)})`,
  'gu',
);
const ORG_SUFFIX = new RegExp(
  `\\b((?:${nameRun(3)})\\s+(?:Labs?|Ventures|Capital|Partners|Inc\\.?|Corp(?:oration)?\\.?|LLC|Ltd\\.?|Technologies|Systems|Studios?|Group|Foundation|Institute|Academy|Bank|Robotics|Research|lab|Lab))\\b`,
  'gu',
);
const PLACE_CONTEXT = new RegExp(
  `\\b(?:moved|moving|move|relocat(?:ed|ing|e)|live|lives|living|lived|based|grew\\s+up|born|trip\\s+to|fly(?:ing)?\\s+to|flew\\s+to|flight\\s+to|arrived\\s+in)\\s+(?:to\\s+|in\\s+|at\\s+|from\\s+)?(?:off\\s+campus\\s+in\\s+)?(${nameRun(3)})`,
  'gu',
);

/**
 * One capitalized word in "-ly" that compromise's lexicon does not know or knows as an adverb: an adverb opening
 * the sentence ("Additionally, my colleague Sarah …" read as a person named in apposition), not Emily, Kelly or
 * Holly.
 */
function adverbLike(name: string, tagger: SpanTagger | null): boolean {
  if (name.includes(' ') || !/ly$/i.test(name)) return false;
  if (!tagger) return false;
  const tags = tagger.lexicon(name);
  return tags.length === 0 || tags.includes('Adverb');
}

/** Candidates in one sentence, before filtering against known names. */
export function sentenceNameCandidates(
  sentence: Sentence,
  tagger: SpanTagger | null,
  registry: Registry,
): NameCandidate[] {
  const out: NameCandidate[] = [];
  const base = { episodeId: sentence.episodeId, self: sentence.self, aliases: [] as string[] };
  const text = sentence.text;
  for (const m of text.matchAll(RELATION_NAME)) {
    const relation = normalizeRelation(m[1] ?? '');
    const name = cleanName(m[2] ?? '');
    if (!isPlausibleName(name)) continue;
    // "I broke up with my girlfriend Sarah": the relation is ending (patterns/kin.ts), not one to record now.
    if (RELATION_ENDING.test(text.slice(0, m.index)))
      out.push({ ...base, name, type: 'person', state: {}, strength: 4 });
    else out.push({ ...base, name, type: 'person', state: { relation }, strength: 4, relation });
  }
  for (const [re, strength] of [
    [PERSON_APPOSITIVE, 4],
    [PERSON_JOINED, 4],
    [PERSON_IS_MY, 4],
    [PERSON_VERB, 2.5],
    [AND_I, 3],
  ] as const) {
    for (const m of text.matchAll(re)) {
      // "a pair of Dr. Martens and I": the point of a title ends no sentence; the titled name is read below.
      if (afterTitle(text, m.index + m[0].indexOf(m[1] ?? ''))) continue;
      for (const part of (m[1] ?? '').split(/\s*,\s*|\s+and\s+/)) {
        const name = cleanName(part);
        if (isPlausibleName(name) && !ORG_WORDS.test(name) && !adverbLike(name, tagger))
          out.push({ ...base, name, type: 'person', state: {}, strength });
      }
    }
  }
  for (const m of text.matchAll(TITLE_NAME)) {
    if (insideQuotes(text, m.index)) continue;
    const title = titled(m[1] ?? '');
    const name = cleanName(m[2] ?? '');
    if (!isPlausibleName(name)) continue;
    // "a pair of Dr. Martens", "my Dr. Martens boots": the brand of a thing one has.
    if (titledBrand(text, m.index, m.index + m[0].length, tagger)) continue;
    const words = name.split(/\s+/);
    const single = words.length === 1;
    const last = words[words.length - 1] ?? name;
    const titleForms = title === 'professor' ? [`Professor ${last}`, `Prof. ${last}`] : [`${titleWord(title)} ${last}`];
    out.push({
      ...base,
      name: single ? `${titleWord(title)} ${name}` : name,
      aliases: [...new Set([`${m[1]} ${name}`, ...titleForms])],
      type: 'person',
      state: { title },
      strength: 4,
    });
  }
  const ofNames = [...text.matchAll(ORG_OF)].map((m) => cleanName(m[1] ?? ''));
  /** A name cut from a longer one with "of" ("National Association" of "… of Watch and Clock Collectors"). */
  const cutFromOf = (name: string): boolean => ofNames.some((n) => n !== name && n.startsWith(`${name} `));
  // Such a name runs longer than most ("National Association of Watch and Clock Collectors").
  for (const name of ofNames) {
    if (isPlausibleName(name, { maxWords: 9 }))
      out.push({ ...base, name, type: 'organization', state: {}, strength: 3 });
  }
  for (const re of [ORG_CONTEXT, ORG_SUFFIX, APPLY_TO]) {
    for (const m of text.matchAll(re)) {
      // "a Facebook Group", "an Art Academy": a kind of thing, not one named.
      if (re === ORG_SUFFIX && /\b(?:a|an)\s+$/i.test(text.slice(Math.max(0, m.index - 4), m.index))) continue;
      const parts = (m[1] ?? '').split(re === APPLY_TO ? /\s+(?:and|&)\s+/ : /\s+and\s+/);
      for (const part of parts) {
        const name = cleanName(part);
        const head = re === ORG_SUFFIX ? name.replace(/\s+(?:lab|Lab|Labs)$/, '') : name;
        if (isPlausibleName(head) && !/'s\s/.test(name) && !cutFromOf(name))
          out.push({ ...base, name, type: 'organization', state: {}, strength: 3 });
      }
    }
  }
  for (const m of text.matchAll(PLACE_CONTEXT)) {
    for (const part of (m[1] ?? '').split(/\s+and\s+/)) {
      const name = cleanName(part);
      if (!isPlausibleName(name)) continue;
      const company = tagger?.lexicon(name).includes('Organization') ?? false;
      out.push({ ...base, name, type: company ? 'organization' : 'place', state: {}, strength: 3 });
    }
  }
  if (tagger && /\s[\p{Lu}]/u.test(text.replace(/\bI\b|\bI'(?:m|ve|d|ll)\b/g, 'i'))) {
    const known = registry.find(text);
    for (const span of tagger.spans(text)) {
      if (known.some((m) => span.start < m.end && m.start < span.end)) continue;
      const c = spanCandidate(span, sentence, tagger);
      if (c && !cutFromOf(c.name)) out.push(c);
    }
  }
  return out;
}

/** "Mel" for "Melanie", "Dan" for "Daniel Okafor": the one other person whose first name starts with this one. */
function nickname(name: string, people: readonly string[]): string | null {
  if (name.includes(' ') || name.length < 2) return null;
  const longer = [...new Set(people)].filter((p) => {
    const first = p.split(/\s+/)[0] ?? '';
    return first.length > name.length && first.startsWith(name);
  });
  return longer.length === 1 ? (longer[0] ?? null) : null;
}

const TITLE_ONLY = /^(?:Professor|Dr\.|Mr\.|Mrs\.|Ms\.|Dean|Coach)\s+(\S+)$/;

/** A title and a surname found by the tagger's honorifics ("President Kennedy"), as TITLE_ONLY reads it. */
function titledSurname(c: NameCandidate): [string, string] | null {
  const words = c.name.split(/\s+/);
  const title = c.state.title;
  return title && words.length === 2 && words[0] === titleWord(title) && words[1] ? [c.name, words[1]] : null;
}

/**
 * Filters candidates against the registry (tools, known entities and project names win) and merges duplicates:
 * a title-only person ("Prof. Okafor") joins a full-named person with the same last name.
 */
export function resolveCandidates(input: {
  candidates: NameCandidate[];
  base: Registry;
  projectNames: ReadonlySet<string>;
  /** Other people's names (the speakers of the batch), for nicknames ("Mel" → "Melanie"). */
  speakers?: readonly string[];
}): { names: DiscoveredName[]; entities: EntityFinding[]; relationships: RelationshipFinding[] } {
  const byName = new Map<string, NameCandidate>();
  for (const c of input.candidates) {
    const key = c.name.toLowerCase();
    if (input.projectNames.has(key) || (c.type !== 'person' && c.name.length < 3)) continue;
    const known = input.base.get(c.name);
    if (known && known.type !== c.type) continue;
    const prior = byName.get(key);
    if (!prior || c.strength > prior.strength) byName.set(key, { ...c, state: { ...prior?.state, ...c.state } });
    else prior.state = { ...c.state, ...prior.state };
  }
  const people = [...byName.values()].filter(
    (c) => c.type === 'person' && c.name.split(/\s+/).length > 1 && !TITLE_ONLY.test(c.name) && !titledSurname(c),
  );
  const knownPersons = input.base.all().filter((e) => e.type === 'person');
  const knownPeople = knownPersons.filter((e) => e.name.split(/\s+/).length > 1);
  const allPeople = [
    ...people.map((p) => p.name),
    ...knownPersons.map((p) => p.name),
    ...[...byName.values()].filter((c) => c.type === 'person').map((c) => c.name),
    ...(input.speakers ?? []),
  ];
  const names: DiscoveredName[] = [];
  const entities: EntityFinding[] = [];
  const relationships: RelationshipFinding[] = [];
  for (const c of byName.values()) {
    const known = input.base.get(c.name);
    let name = known?.name ?? c.name;
    const aliases = [...c.aliases];
    const titleOnly = TITLE_ONLY.exec(c.name) ?? titledSurname(c);
    const nicknameOf = !known && c.type === 'person' && !titleOnly ? nickname(c.name, allPeople) : null;
    if (nicknameOf) {
      aliases.push(c.name);
      name = nicknameOf;
    }
    if (!known && c.type === 'person' && titleOnly?.[1]) {
      const last = titleOnly[1];
      const full = [...people.map((p) => p.name), ...knownPeople.map((p) => p.name)].find((n) =>
        n.endsWith(` ${last}`),
      );
      if (full) {
        aliases.push(c.name);
        name = full;
      }
    }
    names.push({ name, type: c.type, aliases: aliases.filter((a) => a !== name) });
    entities.push({
      name,
      type: c.type,
      aliases: aliases.filter((a) => a !== name),
      state: c.state,
      episodeId: c.episodeId,
    });
    if (c.relation) {
      const type = relationEdge(c.relation);
      const personFirst = type === 'FAMILY_OF' || type === 'MENTORS';
      relationships.push({
        source: personFirst ? name : c.self,
        target: personFirst ? c.self : name,
        type,
        properties: { relation: c.relation },
        ended: false,
        confidence: 0.85,
        episodeId: c.episodeId,
      });
    }
  }
  return { names, entities, relationships };
}
