/** String similarity for fuzzy entity resolution. Pure functions, scores in [0, 1]. */

/** Match flags reused between calls (sized up as needed): allocating two arrays per pair was most of the cost. */
let aMatched: Uint8Array = new Uint8Array(64);
let bMatched: Uint8Array = new Uint8Array(64);

function flags(length: number, current: Uint8Array): Uint8Array {
  const out = current.length >= length ? current : new Uint8Array(Math.max(length, current.length * 2));
  out.fill(0, 0, length);
  return out;
}

/** Jaro–Winkler similarity; good for short names with typos and shared prefixes. */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  aMatched = flags(a.length, aMatched);
  bMatched = flags(b.length, bMatched);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(b.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (bMatched[j] === 1 || a[i] !== b[j]) continue;
      aMatched[i] = 1;
      bMatched[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < a.length; i++) {
    if (aMatched[i] === 0) continue;
    while (bMatched[k] === 0) k++;
    if (a[i] !== b[k]) transpositions++;
    k++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** Characters of a text counted in 38 buckets (a–z, 0–9, space, anything else): for jaroWinklerCeiling. */
export function letterCounts(text: string): Uint8Array {
  const counts = new Uint8Array(38);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const bucket = c >= 97 && c <= 122 ? c - 97 : c >= 48 && c <= 57 ? c - 22 : c === 32 ? 36 : 37;
    counts[bucket] = Math.min(255, (counts[bucket] ?? 0) + 1);
  }
  return counts;
}

/** The buckets of letterCounts that are not empty, ascending: what jaroWinklerCeiling needs to look at. */
export function presentLetters(counts: Uint8Array): Uint8Array {
  const present: number[] = [];
  for (let i = 0; i < counts.length; i++) if ((counts[i] ?? 0) > 0) present.push(i);
  return Uint8Array.from(present);
}

/**
 * An upper bound of jaroWinkler(a, b) from the lengths and letterCounts alone (pure, no allocation): the matching
 * characters are at most the characters the two have in common, so Jaro ≤ (c/|a| + c/|b| + 1) / 3, and the prefix
 * bonus adds at most 0.4 of what is left; when both texts are given, exactly 0.1 per character of their common
 * prefix (up to 4) of it (a far tighter bound for names that start differently). With both `present`
 * (presentLetters of the counts) only those buckets are summed. Lets a caller that only wants scores above a
 * threshold skip the rest.
 */
export function jaroWinklerCeiling(
  a: { length: number; counts: Uint8Array; text?: string; present?: Uint8Array },
  b: { length: number; counts: Uint8Array; text?: string; present?: Uint8Array },
): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 1 : 0;
  let common = 0;
  if (a.present !== undefined && b.present !== undefined) {
    // Only the buckets both have count: those of the one with fewer.
    const few = a.present.length <= b.present.length ? a.present : b.present;
    for (let k = 0; k < few.length; k++) {
      const i = few[k] as number;
      common += Math.min(a.counts[i] ?? 0, b.counts[i] ?? 0);
    }
  } else {
    for (let i = 0; i < 38; i++) common += Math.min(a.counts[i] ?? 0, b.counts[i] ?? 0);
  }
  // A bucket saturated at 255 undercounts: fall back to the shorter length.
  if (a.length > 255 || b.length > 255) common = Math.min(a.length, b.length);
  return withPrefixBonus((common / a.length + common / b.length + 1) / 3, a, b);
}

/**
 * A looser upper bound of jaroWinkler(a, b) from the lengths alone (the characters in common are at most the
 * shorter length), with the prefix bonus as in jaroWinklerCeiling: cheaper still, it rules out names of very
 * different lengths before their letters are counted.
 */
export function jaroWinklerLengthCeiling(a: { length: number; text?: string }, b: { length: number; text?: string }) {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 1 : 0;
  const shorter = Math.min(a.length, b.length);
  return withPrefixBonus((shorter / a.length + shorter / b.length + 1) / 3, a, b);
}

/** A Jaro bound with the most prefix bonus it can get: 0.1 per common first character (up to 4) when known. */
function withPrefixBonus(jaro: number, a: { length: number; text?: string }, b: { length: number; text?: string }) {
  let prefix = 4;
  if (a.text !== undefined && b.text !== undefined) {
    const shorter = Math.min(a.length, b.length);
    prefix = 0;
    while (prefix < 4 && prefix < shorter && a.text[prefix] === b.text[prefix]) prefix++;
  }
  return Math.min(1, jaro + prefix * 0.1 * (1 - jaro));
}

/** Levenshtein distance normalized to a similarity: 1 − distance / longer length. */
export function levenshteinSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  return 1 - editDistance(a, b) / longer;
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * The words where two multi-word names differ, once the words they share at the start and the end are set aside
 * ("stop annotation with malik" / "stop annotation with mila" → "malik" / "mila"); null when one name is a run of
 * the other's words (that is containment, not a typo).
 */
export function differingCore(p: string, q: string): [string, string] | null {
  const a = p.split(' ');
  const b = q.split(' ');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const x = a.slice(start, a.length - end).join(' ');
  const y = b.slice(start, b.length - end).join(' ');
  return x.length === 0 || y.length === 0 ? null : [x, y];
}
