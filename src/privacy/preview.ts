import { findSensitive, type RedactionCategory } from './detectors.js';

export interface RedactionPreview {
  /** Occurrences per category. */
  counts: Partial<Record<RedactionCategory, number>>;
  /** Up to two masked examples per category (never a whole value). */
  examples: Partial<Record<RedactionCategory, string[]>>;
}

/** What redaction would replace in these texts (for `pie ingest --dry-run`). Pure. */
export function previewRedaction(
  texts: Iterable<string>,
  categories: ReadonlySet<RedactionCategory>,
): RedactionPreview {
  const counts: Partial<Record<RedactionCategory, number>> = {};
  const examples: Partial<Record<RedactionCategory, string[]>> = {};
  if (categories.size === 0) return { counts, examples };
  for (const text of texts) {
    for (const s of findSensitive(text, categories)) {
      counts[s.category] = (counts[s.category] ?? 0) + 1;
      const list = (examples[s.category] ??= []);
      const masked = mask(s.category, s.value);
      if (list.length < 2 && !list.includes(masked)) list.push(masked);
    }
  }
  return { counts, examples };
}

/** A hint of a value: a secret's first three characters, anything else its first and last two. */
export function mask(category: RedactionCategory, value: string): string {
  if (category === 'secret') return `${value.slice(0, 3)}…`;
  return value.length <= 6 ? '…' : `${value.slice(0, 2)}…${value.slice(-2)}`;
}
