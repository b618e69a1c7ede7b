/**
 * Name normalization for entity resolution: the first layer compares normalized names and aliases exactly.
 * Pure functions.
 */

const LEADING_ARTICLE = /^(the|a|an)\s+/;

/** Lowercase, accents stripped, punctuation to spaces, whitespace collapsed, leading article dropped. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’']s\b/g, 's')
    .replace(/[^\p{L}\p{N}+#]+/gu, ' ')
    .trim()
    .replace(LEADING_ARTICLE, '')
    .replace(/\s+/g, ' ');
}

const STOP_WORDS = new Set(['of', 'the', 'and', 'for', 'at', 'in', 'on', 'to', 'a', 'an', 'de', 'la', '&']);

/** Initials of the significant words: "Science Research Academy" → "sra"; "University of Maryland" → "um". */
export function initialsOf(name: string): string {
  const words = normalizeName(name)
    .split(' ')
    .filter((w) => w.length > 0 && !STOP_WORDS.has(w));
  return words.map((w) => w[0]).join('');
}

/** Initials including short function words ("University of Maryland" → "uom"), for acronyms that keep them. */
export function fullInitialsOf(name: string): string {
  return normalizeName(name)
    .split(' ')
    .filter((w) => w.length > 0)
    .map((w) => w[0])
    .join('');
}

/** Looks like an acronym: 2–8 letters/digits, written in capitals ("SRA", "UMD", "K8s" is not). */
export function looksLikeAcronym(text: string): boolean {
  const t = text.trim().replace(/\./g, '');
  return /^[A-Z][A-Z0-9&]{1,7}$/.test(t);
}

/**
 * True when `short` is an acronym of the multi-word name `long`: "SRA" ↔ "Science Research Academy",
 * "UOM" ↔ "University of Maryland". Acronyms that are not built from initials ("UMD") resolve only through aliases.
 */
export function isAcronymOf(short: string, long: string): boolean {
  if (!looksLikeAcronym(short)) return false;
  if (normalizeName(long).split(' ').length < 2) return false;
  const acronym = short.replace(/\./g, '').toLowerCase();
  return acronym === initialsOf(long) || acronym === fullInitialsOf(long);
}
