/**
 * Matching text in text. A name matched literally inside a pattern (escapeRegExp); and how forgotten text is
 * recognized in stored text: a substring compared with ASCII letters folded (as SQLite's
 * lower() folds them), in its plain form and, where that differs, its JSON-escaped form (JSON columns keep quotes,
 * backslashes and line breaks escaped). Pure.
 */

/** Lower-cases ASCII letters only, exactly as SQLite's lower() does. */
export function lowerAscii(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** The forms a text is searched in: lower-cased, and JSON-escaped when that differs. Empty text has none. */
export function textForms(text: string): string[] {
  if (text.length === 0) return [];
  const plain = lowerAscii(text);
  const escaped = JSON.stringify(plain).slice(1, -1);
  return escaped === plain ? [plain] : [plain, escaped];
}

/** The text as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export const FORGOTTEN_MARK = '[forgotten]';

/**
 * `text` with every occurrence of each needle (given lower-cased, as textForms makes them) replaced by
 * FORGOTTEN_MARK, comparing with ASCII letters folded.
 */
export function markForgotten(text: string, needles: readonly string[]): string {
  let out = text;
  for (const needle of needles) {
    if (needle.length === 0) continue;
    let at = lowerAscii(out).indexOf(needle);
    while (at >= 0) {
      out = `${out.slice(0, at)}${FORGOTTEN_MARK}${out.slice(at + needle.length)}`;
      at = lowerAscii(out).indexOf(needle, at + FORGOTTEN_MARK.length);
    }
  }
  return out;
}
