/**
 * Names and values inside a note's Markdown, made safe: a name is one line of text whatever it holds (NUL bytes,
 * control characters and newlines become spaces, so "Tide\nPool" cannot end a heading and start a new one), and the
 * characters that would make it something else in Obsidian are escaped (`[[` a link, `|` a table cell or a link
 * alias, `#` a heading or a tag, `<` HTML). Pure.
 */

// Control characters are exactly what this pattern must catch.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** One line: control characters and line breaks become single spaces, the ends are trimmed. */
export function oneLine(text: string): string {
  return text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
}

/** Text shown as written in a heading, a list item or a sentence of a note. */
export function noteText(text: string): string {
  return oneLine(text).replace(/[\\[\]|<>`*_#]/g, (c) => `\\${c}`);
}

/** The display part of `[[file|alias]]`: Obsidian reads no escapes there, so `[`, `]` and `|` become spaces. */
export function linkAlias(text: string): string {
  return oneLine(text.replace(/[[\]|]/g, ' '));
}
