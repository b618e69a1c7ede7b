/**
 * Does a question ask about a relationship? Used to cut an entity's block to what the question needs when the whole
 * block does not fit: an edge stays when the question names its other end, or uses a word of what the edge records
 * (a visit: "been to", "trip", "countries"; a pet: "dog", "pets"); a bare KNOWS only by its words. Pure.
 */
import { escapeRegExp } from '../domain/text-match.js';
import { isBareAcquaintance } from '../domain/world.js';
import { keyCoverage, matchKey, questionKeywords } from '../query/keywords.js';

const CUES: Record<string, RegExp> = {
  VISITED:
    /\b(?:visit\w*|been|travel\w*|trips?|vacation\w*|holidays?|countr(?:y|ies)|cit(?:y|ies)|states?|places?|where)\b/,
  FROM: /\b(?:from|home|grew|born|raised|countr(?:y|ies)|origin\w*|where)\b/,
  LIVES_IN: /\b(?:live[sd]?|living|home|moved?|where)\b/,
  OWNS: /\b(?:pets?|dogs?|cats?|pupp(?:y|ies)|kittens?|animals?|own\w*)\b/,
  READ: /\b(?:read\w*|books?|novels?|authors?)\b/,
  WATCHED: /\b(?:watch\w*|movies?|films?|shows?|seen|saw)\b/,
  LISTENED_TO: /\b(?:listen\w*|songs?|music|bands?|albums?|artists?)\b/,
  PLAYED: /\b(?:play\w*|games?)\b/,
  WORKS_AT: /\b(?:work\w*|jobs?|employ\w*|company|companies)\b/,
  STUDIES_AT: /\b(?:stud\w*|school|college|universit(?:y|ies)|class\w*)\b/,
  FAMILY_OF:
    /\b(?:family|mother|mom|father|dad|parents?|sister|brother|sibling\w*|son|daughter|kids?|children|wife|husband|cousin|aunt|uncle|grand\w*)\b/,
  KNOWS: /\b(?:friends?|know\w*|met|meet)\b/,
  COLLABORATES_WITH: /\b(?:colleagues?|cowork\w*|co-work\w*|team\w*|partners?|work\w*)\b/,
};

export function questionAsksEdge(
  question: string,
  edge: { type: string; otherName: string; properties?: Readonly<Record<string, unknown>> },
): boolean {
  const q = question.toLowerCase();
  const cued = CUES[edge.type]?.test(q) ?? false;
  // Two people a question names together are not asked whether they know each other ("What did Jon say about
  // Gina's store?"): a bare acquaintance is asked by its own words only.
  if (isBareAcquaintance({ type: edge.type, properties: edge.properties ?? {} })) return cued;
  const name = edge.otherName.toLowerCase().trim();
  if (name.length > 1 && new RegExp(`\\b${escapeRegExp(name)}\\b`).test(q)) return true;
  return cued;
}

/** Does a question ask who knows whom ("friends", "met", "know")? Pure. */
export function asksAcquaintance(question: string): boolean {
  return CUES.KNOWS?.test(question.toLowerCase()) ?? false;
}

/**
 * Does a question ask about a change or an event of an entity? It does when the change's words share a search word
 * of the question (by its five-letter match key; the entity's own name left out): "When did Melanie run a charity
 * race?" asks about "Ran a charity race (…)". Pure; the question's keys are read once.
 */
export function questionAsksChange(question: string, entityName: string): (text: string) => boolean {
  const keys = askedKeys(question, [entityName]);
  return (text) => keyCoverage(text, keys) > 0;
}

/**
 * Does a question ask about an entity it does not name? It does when the entity's name or type shares a search word
 * of the question, when a relationship of the entity is of a kind the question asks about (its cue, not the other
 * end's name: a neighbour of the person the question names is linked to that person by name), or when one of its
 * changes shares a word of the question. "What are the main ingredients of the ice cream recipe shared by Nate?"
 * asks about none of Nate's films and games. The names of the entities the question names are left out; a question
 * with no other search word asks about every entity. Pure; the question's keys are read once.
 */
export function questionAsksEntity(
  question: string,
  namedNames: readonly string[],
): (block: {
  entity: { name: string; type: string };
  relationships: readonly { relationship: { type: string } }[];
  texts: readonly string[];
}) => boolean {
  const q = question.toLowerCase();
  const keys = askedKeys(question, namedNames);
  return (block) =>
    block.relationships.some((r) => CUES[r.relationship.type]?.test(q) ?? false) ||
    keys.length === 0 ||
    [block.entity.name, block.entity.type, ...block.texts].some((text) => keyCoverage(text, keys) > 0);
}

/** The question's search words by their match keys, of three letters or more, the words of these names left out. */
function askedKeys(question: string, names: readonly string[]): string[] {
  const own = new Set(names.flatMap((n) => n.split(/\s+/)).map((w) => matchKey(w)));
  return [
    ...new Set(
      questionKeywords(question)
        .map((w) => matchKey(w))
        .filter((k) => k.length >= 3 && !own.has(k)),
    ),
  ];
}
