/**
 * Small helpers for proper names: cleaning spans into names, plausibility checks, and text utilities shared by the
 * pattern families.
 */
import { isAnyGazetteerForm } from './gazetteer.js';
import { NOT_A_NAME } from './lexicon.js';

/** One capitalized name word: "Maya", "O'Brien", "Human-Centered", "Next.js". */
export const NAME_WORD = "(?!I(?:'|\\b))(?:[A-Z][\\p{L}\\p{N}'.&-]*[\\p{L}\\p{N}]|[A-Z])";
/** Up to `max` capitalized words, allowing "of", "for", "and", "&", "the" between them. */
export function nameRun(max: number): string {
  return `(?:${NAME_WORD})(?:\\s+(?:(?:of|for|and|the|de|&)\\s+)?(?:${NAME_WORD})){0,${max - 1}}`;
}

/** Up to `max` capitalized words with nothing between them (a person's name). */
export function personRun(max: number): string {
  return `(?:${NAME_WORD})(?:\\s+(?:${NAME_WORD})){0,${max - 1}}`;
}

/** Capitalized words that start sentences but never start names ("Yesterday Priya joined"). */
const LEADING_NOISE =
  /^(?:today|yesterday|tomorrow|tonight|hey|hi|hello|thanks|so|and|but|also|then|update|ok|okay|yes|no|well|btw|oh|wow|finally|now|just|actually|anyway|last|next|this|that)\s+/i;

/** Strips possessives, surrounding quotes/punctuation, a leading article and leading sentence words. */
export function cleanName(raw: string): string {
  let name = raw
    .trim()
    .replace(/^["'([]+|["')\],;:!?]+$/g, '')
    .replace(/'s$/i, '')
    .replace(/\.$/, '')
    .replace(/^the\s+/i, '')
    .trim();
  while (LEADING_NOISE.test(name) && name.split(/\s+/).length > 1) name = name.replace(LEADING_NOISE, '');
  return name;
}

/** A name made of capitalized words that is not a stopword, a date word or a tool. */
export function isPlausibleName(name: string, options: { allowGazetteer?: boolean; maxWords?: number } = {}): boolean {
  if (name.length < 2 || name.length > 60) return false;
  const words = name.split(/\s+/);
  if (words.length > (options.maxWords ?? 6)) return false;
  const content = words.filter((w) => !/^(?:of|for|and|the|de|&)$/i.test(w));
  if (content.length === 0) return false;
  if (/^(?:my|our|your|his|her|their|its|this|that|these|those|a|an|some|every|each|no)$/i.test(words[0] ?? ''))
    return false;
  if (!content.every((w) => /^[\p{Lu}\p{N}]/u.test(w))) return false;
  if (content.every((w) => NOT_A_NAME.has(w.toLowerCase().replace(/[^a-z]/g, '')))) return false;
  if (!options.allowGazetteer && isAnyGazetteerForm(name)) return false;
  return true;
}

/** Clips text to `max` characters at a word boundary. */
export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[,;:\s]+$/, '')}…`;
}

/** Cuts a clause at the first boundary word or punctuation that ends it. */
export function cutClause(text: string, boundaries: RegExp = DEFAULT_BOUNDARY): string {
  const m = boundaries.exec(text);
  return (m ? text.slice(0, m.index) : text).replace(/[\s,;:.!?-]+$/, '').trim();
}

const DEFAULT_BOUNDARY =
  /\s*(?:[;!?]|:(?!\d)|\.(?:\s|$)|,\s+(?:but|so|and then|which|because|since|while)\b|\s+(?:because|since|but)\s+|\s+—\s+|\s+-\s+)/i;

/** Uppercases the first letter: a summary opens a sentence. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Lowercases the first letter unless the first word looks like a name or an acronym. */
export function lowerFirst(text: string): string {
  const first = text.split(/\s+/)[0] ?? '';
  if (/^[A-Z][A-Z0-9]|^[A-Z][a-z]*[A-Z]/.test(first) || first === 'I') return text;
  if (/^[A-Z]/.test(first) && isAnyGazetteerForm(first.replace(/[^\p{L}\p{N}.+#-]/gu, ''))) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Content words of a text (lowercased, stopwords and short words dropped), for overlap scores. */
export function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 2 && !STOP.has(w))
    .map((w) => w.replace(/(?:ies)$/, 'y').replace(/(?<=[a-z]{3})s$/, ''));
}

const STOP = new Set(
  'the and for with that this from into about than then there their they them what when where which while will would should could have has had was were are is be been being not but you your our out its it’s just more most very much many some any all can cannot don’t dont does did doing also only even still like really'.split(
    ' ',
  ),
);

/** Share of `a`'s content words found in `b` (0..1). */
export function overlap(a: string, b: string): number {
  const wa = new Set(contentWords(a));
  if (wa.size === 0) return 0;
  const wb = new Set(contentWords(b));
  let hit = 0;
  for (const w of wa) if (wb.has(w)) hit++;
  return hit / wa.size;
}
