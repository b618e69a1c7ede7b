import { findSensitive, type RedactionCategory } from './detectors.js';

/**
 * Replaces sensitive values with stable placeholders (`⟦EMAIL_1⟧`: the same value gets the same placeholder in every
 * text given to one redactor) and maps placeholders in a model's answer back to the values. Counts what it hid.
 */
export interface Redactor {
  redact(text: string): string;
  /** The answer with every placeholder this redactor gave out replaced by its value; `json`: inside JSON text. */
  restore(text: string, options?: { json?: boolean }): string;
  /** Values hidden so far, per category (distinct values). */
  counts(): Partial<Record<RedactionCategory, number>>;
}

export function createRedactor(categories: ReadonlySet<RedactionCategory>): Redactor {
  const byValue = new Map<string, string>();
  const byPlaceholder = new Map<string, string>();
  const perCategory = new Map<RedactionCategory, number>();
  return {
    redact(text) {
      const spans = findSensitive(text, categories);
      if (spans.length === 0) return text;
      let out = '';
      let at = 0;
      for (const s of spans) {
        let placeholder = byValue.get(s.value);
        if (!placeholder) {
          const n = (perCategory.get(s.category) ?? 0) + 1;
          perCategory.set(s.category, n);
          placeholder = `⟦${s.category.toUpperCase()}_${n}⟧`;
          byValue.set(s.value, placeholder);
          byPlaceholder.set(placeholder, s.value);
        }
        out += text.slice(at, s.start) + placeholder;
        at = s.end;
      }
      return out + text.slice(at);
    },
    restore(text, options = {}) {
      if (byPlaceholder.size === 0) return text;
      return text.replace(/⟦([A-Z_]+_\d+)⟧/g, (whole) => {
        const value = byPlaceholder.get(whole);
        if (value === undefined) return whole;
        // Inside JSON text the value must stay a valid string body (quotes, backslashes, newlines escaped).
        return options.json ? JSON.stringify(value).slice(1, -1) : value;
      });
    },
    counts() {
      return Object.fromEntries(perCategory) as Partial<Record<RedactionCategory, number>>;
    },
  };
}
