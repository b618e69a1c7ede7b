import { pushTo } from '../domain/collections.js';
import { fullInitialsOf, initialsOf, isAcronymOf, looksLikeAcronym, normalizeName } from '../resolve/normalize.js';
import { RESOLVER_DEFAULTS } from '../resolve/resolver.js';
import { compareBlocks, isContainedIn, prepareName, type BlockEntity } from './duplicate-blocks.js';

export { isContainedIn };
export { differingCore } from '../resolve/similarity.js';

/** An entity as duplicate detection sees it (merged, protected and deleted entities are left out by the caller). */
export interface DedupEntity {
  id: string;
  type: string;
  name: string;
  aliases: readonly string[];
}

/**
 * Why two entities look like one, strongest first. `exact` (same normalized name) and `alias` (one's name is the
 * other's alias) are unambiguous: the resolver itself would have matched them. The others need a model's
 * confirmation (or a person's review): `acronym` ("SRA" ↔ "Science Research Academy"), `fuzzy` (Jaro–Winkler at or
 * above the resolver's accept threshold), `contained` (one's whole name is a run of the other's words: "Tidepool" ↔
 * "Tidepool app"), `task` (ingestion left a merge_duplicates task for the pair).
 */
export type DuplicateReason = 'exact' | 'alias' | 'acronym' | 'fuzzy' | 'contained' | 'task';

export interface DuplicateCandidate {
  /** The pair in id order (a < b); which one is canonical is decided when merging. */
  a: string;
  b: string;
  reason: DuplicateReason;
  /** 1 for exact and alias, the similarity for fuzzy, 0.95 for acronyms, 0.9 for containment. */
  score: number;
}

export interface CandidateOptions {
  /** Jaro–Winkler on normalized names (and aliases) from which a pair is a fuzzy candidate (the resolver's accept). */
  fuzzyAccept?: number;
  /**
   * Jaro–Winkler the differing words of two multi-word names must reach (see `differingCore`): a long shared part
   * alone does not make two names alike.
   */
  fuzzyCore?: number;
  /** Shortest normalized name compared fuzzily (the resolver's rule: short names match too easily). */
  fuzzyMinLength?: number;
  /** Shortest normalized name that may be contained in another name. */
  containedMinLength?: number;
  /**
   * Blocks (entities of one type sharing a name word or first three letters) larger than this are not compared
   * pairwise: such a key says little, and comparing its members would be quadratic. Exact, alias and acronym
   * matches are found through hash lookups and never skipped.
   */
  maxBlock?: number;
}

export const UNAMBIGUOUS: ReadonlySet<DuplicateReason> = new Set(['exact', 'alias']);

const RANK: Record<DuplicateReason, number> = { exact: 0, alias: 1, acronym: 2, fuzzy: 3, contained: 4, task: 5 };

export interface CandidateResult {
  candidates: DuplicateCandidate[];
  /** Blocks skipped for their size (see CandidateOptions.maxBlock). */
  skippedBlocks: number;
  /** Pairs compared by similarity (bounded by the blocks). */
  compared: number;
}

/**
 * Blocking keys: each word of 3+ characters; a one-word name also blocks by its first three letters (so a typo
 * after them still meets its twin). Multi-word names meet through a shared word.
 */
function blockKeys(normalized: string): string[] {
  const words = normalized.split(' ');
  const keys = new Set<string>();
  if (words.length === 1 && normalized.length >= 3) keys.add(`p:${normalized.slice(0, 3)}`);
  for (const word of words) if (word.length >= 3) keys.add(`w:${word}`);
  return [...keys];
}

/**
 * Pairs of same-type entities whose names match by entity resolution's checks (pure). Work is bounded: exact names,
 * aliases and acronyms are hash lookups; similarity is computed only within small blocks of one type sharing a name
 * key, never over all pairs. Each pair is reported once, with its strongest reason.
 */
export function findDuplicateCandidates(
  entities: readonly DedupEntity[],
  options: CandidateOptions = {},
): CandidateResult {
  const fuzzyAccept = options.fuzzyAccept ?? RESOLVER_DEFAULTS.fuzzyAccept;
  const fuzzyCore = options.fuzzyCore ?? 0.9;
  const fuzzyMinLength = options.fuzzyMinLength ?? 5;
  const containedMinLength = options.containedMinLength ?? 4;
  const maxBlock = options.maxBlock ?? 200;

  const keys = new Map<string, { name: string; aliases: string[] }>();
  // The pairwise comparison numbers the entities: `compared` holds them in that order, `indexOf` gives the number.
  const compared: (BlockEntity & { id: string })[] = [];
  const indexOf = new Map<string, number>();
  const byName = new Map<string, string[]>();
  const byAlias = new Map<string, string[]>();
  const byInitials = new Map<string, string[]>();
  const blocks = new Map<string, number[]>();
  const byId = new Map<string, DedupEntity>();
  for (const e of entities) {
    const name = normalizeName(e.name);
    if (name.length === 0) continue;
    const aliases = [...new Set(e.aliases.map(normalizeName))].filter((a) => a.length > 0 && a !== name);
    keys.set(e.id, { name, aliases });
    byId.set(e.id, e);
    const index = indexOf.get(e.id) ?? compared.length;
    indexOf.set(e.id, index);
    compared[index] = { id: e.id, name, names: [name, ...aliases].map(prepareName) };
    pushTo(byName, `${e.type}\u0000${name}`, e.id);
    for (const a of aliases) pushTo(byAlias, `${e.type}\u0000${a}`, e.id);
    if (name.includes(' ')) {
      for (const ini of new Set([initialsOf(e.name), fullInitialsOf(e.name)])) {
        if (ini.length >= 2) pushTo(byInitials, `${e.type}\u0000${ini}`, e.id);
      }
    }
    for (const block of new Set([name, ...aliases].flatMap(blockKeys)))
      pushTo(blocks, `${e.type}\u0000${block}`, index);
  }

  const found = new Map<string, DuplicateCandidate>();
  const add = (x: string, y: string, reason: DuplicateReason, score: number): void => {
    if (x === y) return;
    const [a, b] = x < y ? [x, y] : [y, x];
    const key = `${a}\u0000${b}`;
    const known = found.get(key);
    if (known === undefined || RANK[reason] < RANK[known.reason]) found.set(key, { a, b, reason, score });
  };

  for (const ids of byName.values())
    for (let i = 1; i < ids.length; i++) add(ids[0] as string, ids[i] as string, 'exact', 1);
  for (const e of entities) {
    const k = keys.get(e.id);
    if (k === undefined) continue;
    for (const other of byAlias.get(`${e.type}\u0000${k.name}`) ?? []) add(e.id, other, 'alias', 1);
    if (looksLikeAcronym(e.name)) {
      const matches = (byInitials.get(`${e.type}\u0000${k.name}`) ?? []).filter((id) => {
        const other = byId.get(id);
        return other !== undefined && isAcronymOf(e.name, other.name);
      });
      // Like the resolver: an acronym that fits several long names is ambiguous and matches none.
      if (matches.length === 1) add(e.id, matches[0] as string, 'acronym', 0.95);
    }
  }

  const idOf = (i: number): string => compared[i]?.id ?? '';
  const pairs = compareBlocks({
    entities: compared,
    blocks: [...blocks.values()],
    rules: { fuzzyAccept, fuzzyCore, fuzzyMinLength, containedMinLength, maxBlock },
    found: (x, y, reason, score) => add(idOf(x), idOf(y), reason, score),
  });
  const candidates = [...found.values()].sort(
    (p, q) => RANK[p.reason] - RANK[q.reason] || q.score - p.score || p.a.localeCompare(q.a) || p.b.localeCompare(q.b),
  );
  return { candidates, skippedBlocks: pairs.skippedBlocks, compared: pairs.compared };
}

/** What decides which of two duplicates stays. */
export interface CanonicalProfile {
  id: string;
  /** Transitions (maintenance records left out): the history each carries. */
  transitions: number;
  importance: number;
  firstSeen: number;
  /** With `type`: a person with the fuller name stays (fullerPersonName). */
  name?: string;
  type?: string;
}

/**
 * Of two people where one's name is a run of the other's words ("Maya" / "Maya Chen", "Chen" / "Maya Chen"), the one
 * with the fuller name (pure); undefined for any other pair. A merge keeps it, so the world never ends up calling
 * Maya Chen "Maya" because the first name was said first, or said more often.
 */
export function fullerPersonName<T extends { name: string; type: string }>(x: T, y: T): T | undefined {
  if (x.type !== 'person' || y.type !== 'person') return undefined;
  const a = normalizeName(x.name);
  const b = normalizeName(y.name);
  if (isContainedIn(a, b)) return y;
  if (isContainedIn(b, a)) return x;
  return undefined;
}

/**
 * The entity that stays when two merge (pure): a person with the fuller name (fullerPersonName, when the profiles
 * carry names), else the one with more history, then the more important, then the one seen first, then the smaller
 * id (so the choice never depends on the order the pair was found in).
 */
export function chooseCanonical<T extends CanonicalProfile>(x: T, y: T): { canonical: T; duplicate: T } {
  const fuller =
    x.name !== undefined && x.type !== undefined && y.name !== undefined && y.type !== undefined
      ? fullerPersonName({ name: x.name, type: x.type }, { name: y.name, type: y.type })
      : undefined;
  if (fuller !== undefined)
    return fuller.name === x.name ? { canonical: x, duplicate: y } : { canonical: y, duplicate: x };
  const order =
    y.transitions - x.transitions ||
    y.importance - x.importance ||
    x.firstSeen - y.firstSeen ||
    x.id.localeCompare(y.id);
  return order <= 0 ? { canonical: x, duplicate: y } : { canonical: y, duplicate: x };
}

/** The entity meta key holding the ids a person said are not the same entity as this one (the inbox's "keep apart"). */
export const KEPT_APART_KEY = 'keptApart';

/** Ids a person kept apart from the entity with this meta. */
export function keptApartIds(meta: Readonly<Record<string, unknown>>): string[] {
  const ids = meta[KEPT_APART_KEY];
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** Candidates without the pairs a person kept apart: neither merging nor the audit proposes them again. */
export function withoutKeptApart<C extends { a: string; b: string }>(
  candidates: readonly C[],
  byId: ReadonlyMap<string, { meta: Readonly<Record<string, unknown>> }>,
): C[] {
  const apart = (x: string, y: string) => keptApartIds(byId.get(x)?.meta ?? {}).includes(y);
  return candidates.filter((c) => !apart(c.a, c.b) && !apart(c.b, c.a));
}
