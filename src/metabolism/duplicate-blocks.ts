import {
  differingCore,
  jaroWinkler,
  jaroWinklerCeiling,
  jaroWinklerLengthCeiling,
  letterCounts,
  presentLetters,
} from '../resolve/similarity.js';

/**
 * The pairwise part of duplicate detection (pure): entities that share a blocking key are compared by name, each pair
 * once. Entities are numbers here (their place in the caller's list), so the hundreds of thousands of pairs a large
 * memory's blocks hold are compared without building a string per pair.
 */

/** One entity's normalized names as the comparison reads them. */
export interface BlockEntity {
  /** Its normalized name. */
  name: string;
  /** Its name, then its aliases, each with what the comparison checks first. */
  names: readonly PreparedName[];
}

/** A normalized name with what similarity() checks first, computed once per name instead of once per pair. */
export interface PreparedName {
  text: string;
  length: number;
  digits: string;
  counts: Uint8Array;
  /** The buckets of `counts` that are not empty. */
  present: Uint8Array;
}

export interface BlockRules {
  fuzzyAccept: number;
  fuzzyCore: number;
  fuzzyMinLength: number;
  containedMinLength: number;
  maxBlock: number;
}

const digitsOf = (text: string): string => (text.match(/\d+/g) ?? []).join(' ');

export function prepareName(text: string): PreparedName {
  const counts = letterCounts(text);
  return { text, length: text.length, digits: digitsOf(text), counts, present: presentLetters(counts) };
}

/**
 * Every pair of entities in a block of 2 to `maxBlock` members (larger blocks are skipped and counted), each pair in
 * the first block (in the order given) that holds both; `found` hears of the pairs that match fuzzily or by
 * containment. Returns how many pairs were compared and how many blocks were skipped.
 */
export function compareBlocks(input: {
  entities: readonly BlockEntity[];
  blocks: readonly (readonly number[])[];
  rules: BlockRules;
  found: (x: number, y: number, reason: 'fuzzy' | 'contained', score: number) => void;
}): { compared: number; skippedBlocks: number } {
  const { entities, blocks, rules } = input;
  // The blocks each entity is compared in, ascending: a pair already met in an earlier block is not compared again.
  const memberOf: number[][] = entities.map(() => []);
  blocks.forEach((members, b) => {
    if (members.length < 2 || members.length > rules.maxBlock) return;
    for (const m of members) memberOf[m]?.push(b);
  });
  let compared = 0;
  let skippedBlocks = 0;
  blocks.forEach((members, b) => {
    if (members.length < 2) return;
    if (members.length > rules.maxBlock) {
      skippedBlocks++;
      return;
    }
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        const x = members[i] as number;
        const y = members[j] as number;
        if (x === y || metBefore(memberOf[x] ?? [], memberOf[y] ?? [], b)) continue;
        compared++;
        const ex = entities[x];
        const ey = entities[y];
        // Equal names are paired by the caller (an exact match).
        if (ex === undefined || ey === undefined || ex.name === ey.name) continue;
        const score = similarity({ x: ex.names, y: ey.names, rules });
        if (score >= rules.fuzzyAccept) input.found(x, y, 'fuzzy', score);
        else if (contained(ex.name, ey.name, rules.containedMinLength)) input.found(x, y, 'contained', 0.9);
      }
    }
  });
  return { compared, skippedBlocks };
}

/** Do two ascending lists of blocks share one before block `b`? */
function metBefore(xs: readonly number[], ys: readonly number[], b: number): boolean {
  let i = 0;
  let j = 0;
  while (i < xs.length && j < ys.length) {
    const x = xs[i] as number;
    const y = ys[j] as number;
    if (x >= b || y >= b) return false;
    if (x === y) return true;
    if (x < y) i++;
    else j++;
  }
  return false;
}

/** Is `short` a contiguous run of whole words of `long` (and shorter than it)? */
export function isContainedIn(short: string, long: string): boolean {
  if (short.length >= long.length) return false;
  if (short.length === 0) return ` ${long} `.includes('  ');
  // ` ${long} `.includes(` ${short} `) without building either string (this runs for most compared pairs).
  for (let at = long.indexOf(short); at >= 0; at = long.indexOf(short, at + 1)) {
    const end = at + short.length;
    if ((at === 0 || long[at - 1] === ' ') && (end === long.length || long[end] === ' ')) return true;
  }
  return false;
}

/**
 * The best Jaro–Winkler score at or above `fuzzyAccept` between one's names and the other's that counts as a likely
 * misspelling, 0 when none reaches it: names shorter than `fuzzyMinLength` do not count, nor pairs whose numbers differ
 * ("iPhone 12" and "iPhone 13" are two things however alike they are spelled), nor long names that share most words
 * but differ in one that is not itself a near spelling of the other ("… with Luna" / "… with Lina": Jaro–Winkler
 * rewards the long shared part, `fuzzyCore` does not). Pairs whose score cannot reach it (jaroWinklerCeiling) are
 * not scored (first by their lengths alone, then by their letters): only whether a score reaches it, and the best one
 * that does, decide a candidate.
 */
function similarity(o: { x: readonly PreparedName[]; y: readonly PreparedName[]; rules: BlockRules }): number {
  const { fuzzyMinLength: min, fuzzyCore: core, fuzzyAccept: accept } = o.rules;
  let best = 0;
  for (const p of o.x) {
    if (p.length < min) continue;
    for (const q of o.y) {
      if (q.length < min || p.digits !== q.digits) continue;
      if (jaroWinklerLengthCeiling(p, q) < accept - CEILING_SLACK) continue;
      if (jaroWinklerCeiling(p, q) < accept - CEILING_SLACK) continue;
      const score = jaroWinkler(p.text, q.text);
      if (score <= best || score < accept) continue;
      const diff = differingCore(p.text, q.text);
      if (diff !== null && (diff[0] === p.text || jaroWinkler(diff[0], diff[1]) >= core)) best = score;
    }
  }
  return best;
}

/** Rounding room between the ceiling and a score computed another way. */
const CEILING_SLACK = 1e-9;

function contained(x: string, y: string, min: number): boolean {
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short.length >= min && isContainedIn(short, long);
}
