import { errorMessage } from '../domain/errors.js';
import { cosine } from '../domain/vectors.js';
import type { Embedder } from '../ports/embedder.js';
import type { IndexedEntity, NameIndex } from './name-index.js';
import { isAcronymOf, looksLikeAcronym, normalizeName } from './normalize.js';
import { differingCore, jaroWinkler } from './similarity.js';

export type ResolutionLayer = 'exact' | 'alias' | 'acronym' | 'fuzzy' | 'embedding' | 'llm' | 'new';

export interface Resolution {
  /** The matched entity, or null when the mention is a new entity. */
  entityId: string | null;
  layer: ResolutionLayer;
  score: number;
  /** Close candidates that were not accepted (for review by the sleep cycle or the verifier). */
  ambiguous: IndexedEntity[];
  /** Why the verifier could not decide (model unreachable, invalid answer): the mention then stays new. */
  verifierError?: string;
  /**
   * The mention is a more complete name of the matched entity ("Maya Chen" for the person known only as "Maya"): it
   * becomes the entity's canonical name, and the old name one of its aliases.
   */
  canonicalName?: string;
}

/** Asks a model whether a mention and a candidate are the same real-world entity. */
export type MatchVerifier = (input: {
  name: string;
  type: string | undefined;
  candidate: IndexedEntity;
}) => Promise<boolean>;

export interface ResolverOptions {
  index: NameIndex;
  embedder?: Embedder | undefined;
  verifier?: MatchVerifier | undefined;
  /** Fuzzy similarity accepted without verification (Jaro–Winkler on normalized names). */
  fuzzyAccept?: number;
  /** Lower bound of the ambiguous band sent to the verifier. */
  fuzzyReview?: number;
  /** Embedding cosine similarity accepted as a match (the flowcharts' 0.88). */
  embeddingAccept?: number;
}

export const RESOLVER_DEFAULTS = { fuzzyAccept: 0.94, fuzzyReview: 0.86, embeddingAccept: 0.88 };

/** Types that may be the same entity when names match; an unknown type matches anything. */
export function compatibleTypes(a: string | undefined, b: string): boolean {
  return a === undefined || a === b || a === 'unknown' || b === 'unknown';
}

/**
 * Entity resolution, layer by layer (DESIGN.md issue: extraction): normalized exact name → alias →
 * acronym/abbreviation → fuzzy similarity within compatible types → embedding similarity (when an embedder is
 * configured) → model verification of ambiguous candidates (when a verifier is configured) → new entity.
 */
export class Resolver {
  private readonly options: ResolverOptions & typeof RESOLVER_DEFAULTS;
  private readonly vectors = new Map<string, number[]>();

  constructor(options: ResolverOptions) {
    this.options = { ...RESOLVER_DEFAULTS, ...options };
  }

  async resolve(input: { name: string; type?: string | undefined }): Promise<Resolution> {
    const { index } = this.options;
    const key = normalizeName(input.name);
    if (key.length === 0) return none();
    const typed = (list: IndexedEntity[]): IndexedEntity[] => preferType(list, input.type);

    const exact = typed(index.byName(key));
    if (exact[0]) return hit(exact[0], 'exact', 1);
    const alias = typed(index.byAlias(key));
    if (alias[0]) return hit(alias[0], 'alias', 1);

    const acronym = this.acronymMatch(input.name, input.type);
    if (acronym) return hit(acronym, 'acronym', 0.95);

    const scored = index
      .candidates(key)
      .filter((c) => compatibleTypes(input.type, c.type))
      .map((c) => ({ entity: c, ...bestScores(key, c) }))
      .sort((a, b) => b.score - a.score);
    // Accepted on its own only when the words where the names differ are a near spelling too (acceptScore); a
    // little less near is left for review (bestScores).
    const best = [...scored].sort((a, b) => b.accept - a.accept)[0];
    if (best && best.accept >= this.options.fuzzyAccept && key.length >= 5) {
      return hit(best.entity, 'fuzzy', best.accept);
    }

    const personMatch = this.personFirstName(key, input.type);
    if (personMatch) return hit(personMatch, 'fuzzy', 0.9);
    const firstNameOnly = this.personKnownByFirstName(input.name, input.type);
    if (firstNameOnly) return { ...hit(firstNameOnly, 'fuzzy', 0.9), canonicalName: input.name.trim() };

    const review = scored.filter((s) => s.score >= this.options.fuzzyReview).map((s) => s.entity);

    if (this.options.embedder) {
      const match = await this.embeddingMatch(input.name, input.type);
      if (match) return hit(match.entity, 'embedding', match.score);
    }

    if (this.options.verifier) {
      try {
        for (const candidate of review.slice(0, 3)) {
          if (await this.options.verifier({ name: input.name, type: input.type, candidate })) {
            return hit(candidate, 'llm', 0.9);
          }
        }
      } catch (error) {
        // A verifier that cannot answer must not stop ingestion: the mention stays new and the candidates are kept
        // as ambiguous, for the sleep cycle to review.
        return { entityId: null, layer: 'new', score: 0, ambiguous: review, verifierError: errorMessage(error) };
      }
    }
    return { entityId: null, layer: 'new', score: 0, ambiguous: review };
  }

  private acronymMatch(name: string, type: string | undefined): IndexedEntity | undefined {
    const { index } = this.options;
    if (looksLikeAcronym(name)) {
      const found = preferType(index.byAcronym(name), type).filter((c) => compatibleTypes(type, c.type));
      if (found.length === 1) return found[0];
      return undefined;
    }
    // A long name whose acronym is a known short entity ("Science Research Academy" when only "SRA" is known).
    const short = [...index.candidatesForAcronymOf(name)].filter(
      (c) => compatibleTypes(type, c.type) && isAcronymOf(c.name, name),
    );
    return short.length === 1 ? short[0] : undefined;
  }

  /** "Maya" resolves to the one known person whose full name starts with Maya. */
  private personFirstName(key: string, type: string | undefined): IndexedEntity | undefined {
    if (type !== 'person' || key.includes(' ')) return undefined;
    const matches = this.options.index
      .candidates(key)
      .filter((c) => c.type === 'person' && normalizeName(c.name).split(' ')[0] === key);
    return matches.length === 1 ? matches[0] : undefined;
  }

  /**
   * "Maya Chen" resolves to the one known person named only "Maya" (and becomes its name), the converse of
   * personFirstName, so the world does not depend on which was said first (see fullNameOfFirstName).
   */
  private personKnownByFirstName(name: string, type: string | undefined): IndexedEntity | undefined {
    if (type !== 'person') return undefined;
    const first = name.trim().split(/\s+/)[0] ?? '';
    return fullNameOfFirstName({
      name,
      people: this.options.index.candidates(normalizeName(first)).filter((c) => c.type === 'person'),
    });
  }

  private async embeddingMatch(
    name: string,
    type: string | undefined,
  ): Promise<{ entity: IndexedEntity; score: number } | undefined> {
    const embedder = this.options.embedder;
    if (!embedder || type === undefined) return undefined;
    const pool = this.options.index.ofType(type);
    if (pool.length === 0) return undefined;
    const missing = [name, ...pool.map((c) => c.name)].filter((t) => !this.vectors.has(t));
    if (missing.length > 0) {
      const vectors = await embedder.embed(missing);
      missing.forEach((t, i) => {
        const v = vectors[i];
        if (v) this.vectors.set(t, v);
      });
    }
    const query = this.vectors.get(name);
    if (!query) return undefined;
    let best: { entity: IndexedEntity; score: number } | undefined;
    for (const c of pool) {
      const v = this.vectors.get(c.name);
      if (!v) continue;
      const score = cosine(query, v);
      if (score >= this.options.embeddingAccept && (!best || score > best.score)) best = { entity: c, score };
    }
    return best;
  }
}

/** A word of a person's name as written: a capital, then lowercase letters ("Maya", "O'Brien", "Chen-Li", "McKay"). */
const NAME_WORD = /^\p{Lu}[\p{L}'’-]*\p{Ll}$/u;

/**
 * The person a full name ("Maya Chen": two or three capitalized name words) refers to when the world knows that
 * person only by the first name (pure): the one person among `people` named by that word alone, written exactly so,
 * with its capital ("Maya", not "maya"), and no other person whose name or alias starts with that first name
 * ("Maya Patel" makes "Maya" ambiguous, and a "Maya" already known by another full name is not this one). The first
 * name is the person's only as written, as the offline extractor's registry holds ("a first or last name alone
 * matches a known person only with its capital"); undefined when no person or several fit.
 */
export function fullNameOfFirstName(input: {
  name: string;
  people: readonly IndexedEntity[];
}): IndexedEntity | undefined {
  const words = input.name.trim().split(/\s+/);
  const first = words[0] ?? '';
  if (words.length < 2 || words.length > 3 || !words.every((w) => NAME_WORD.test(w))) return undefined;
  const key = normalizeName(first);
  const startsWithFirst = (n: string): boolean => normalizeName(n).split(' ')[0] === key;
  const sharing = input.people.filter((p) => [p.name, ...p.aliases].some(startsWithFirst));
  const only = sharing[0];
  if (sharing.length !== 1 || only === undefined || only.fixedName === true || only.name.trim() !== first) {
    return undefined;
  }
  // Known by the first name alone: no alias of it is a full name already (that would be another Maya).
  if (only.aliases.some((a) => normalizeName(a).includes(' '))) return undefined;
  return only;
}

const wordCount = (name: string): number => name.split(' ').filter((w) => w !== '').length;

/** Names worth a review when their lengths differ: one holds the other once spaces are dropped ("Tide Pool Notes"). */
function sameWordsOrCompound(a: string, b: string): boolean {
  if (wordCount(a) === wordCount(b)) return true;
  const [x, y] = [a.replace(/ /g, ''), b.replace(/ /g, '')];
  return x.includes(y) || y.includes(x);
}

/**
 * The best scores of a mention against a candidate's name and aliases: to review (`score`) and to take (`accept`).
 * Both weigh the words where the names differ (acceptScore), so a review is a near miss of a take, not two names
 * that share a generic part ("University of Michigan" / "… of Maryland", "Google Docs" / "Google Drive"); and review
 * weighs names of different lengths only when one holds the other written together: otherwise a high Jaro–Winkler
 * comes from a shared beginning ("University of Maryland" / "Universal", 0.88), not from a near spelling.
 */
function bestScores(key: string, candidate: IndexedEntity): { score: number; accept: number } {
  let score = 0;
  let accept = 0;
  for (const name of [candidate.name, ...candidate.aliases]) {
    const other = normalizeName(name);
    const near = acceptScore(key, other, jaroWinkler(key, other));
    if (sameWordsOrCompound(key, other)) score = Math.max(score, near);
    accept = Math.max(accept, near);
  }
  return { score, accept };
}

/**
 * Jaro–Winkler of two normalized names for a match taken without review: no higher than that of the words where they
 * differ when they share words. "Jon's childhood" is not "Joanna's childhood" (0.95 whole, 0.78 for "jons" /
 * "joannas"), while "Joanna's childhod" still is: the long shared part is what Jaro–Winkler rewards, and a typo is in
 * the differing words. `whole` is the names' own Jaro–Winkler. Pure.
 */
function acceptScore(a: string, b: string, whole: number): number {
  const diff = differingCore(a, b);
  if (diff === null || diff[0] === a || diff[1] === b) return whole;
  return Math.min(whole, jaroWinkler(diff[0], diff[1]));
}

function preferType(list: IndexedEntity[], type: string | undefined): IndexedEntity[] {
  if (type === undefined) return list;
  const same = list.filter((e) => e.type === type);
  return same.length > 0 ? same : list.filter((e) => compatibleTypes(type, e.type) || list.length === 1);
}

function hit(entity: IndexedEntity, layer: ResolutionLayer, score: number): Resolution {
  return { entityId: entity.id, layer, score, ambiguous: [] };
}

function none(): Resolution {
  return { entityId: null, layer: 'new', score: 0, ambiguous: [] };
}
