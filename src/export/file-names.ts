/**
 * File names that work on every OS and inside Obsidian links: no path separators or characters Windows forbids
 * (/ \ : * ? " < > |), none of the characters that break a wikilink (# ^ [ ] |), no control characters, no trailing
 * dot or space, no reserved Windows device name, at most MAX_NAME characters. Pure.
 */
// Control characters are exactly what this pattern must catch.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[/\\:*?"<>|#^[\]\u0000-\u001f\u007f]/g;
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
export const MAX_NAME = 120;

export function safeFileName(name: string): string {
  let out = name.normalize('NFC').replace(/\s+/g, ' ').replace(FORBIDDEN, '-').trim();
  out = out.replace(/^\.+/, '').replace(/[. ]+$/, '');
  if ([...out].length > MAX_NAME)
    out = [...out]
      .slice(0, MAX_NAME)
      .join('')
      .replace(/[. ]+$/, '');
  if (out === '' || /^-+$/.test(out)) out = 'untitled';
  if (RESERVED.test(out)) out = `${out}_`;
  return out;
}

export interface Named {
  id: string;
  name: string;
  /** Used to tell apart two things whose names collide, e.g. an entity's type. */
  kind: string;
}

/**
 * A unique file name (without extension) for each item, deterministic for the same input whatever its order:
 * names are compared case-insensitively (macOS and Windows file systems are), the item with the smallest id keeps
 * the plain name, the others get " (kind)" and, if that still collides, " (kind id-prefix)". `reserved` names
 * (lower case) are never given out.
 */
export function assignFileNames(items: readonly Named[], reserved: readonly string[] = []): Map<string, string> {
  const sorted = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const taken = new Set(reserved.map((r) => r.toLowerCase()));
  const result = new Map<string, string>();
  const byBase = new Map<string, Named[]>();
  for (const item of sorted) {
    const key = safeFileName(item.name).toLowerCase();
    byBase.set(key, [...(byBase.get(key) ?? []), item]);
  }
  // Plain names first, so that a later collision never takes a name an unambiguous item needs.
  for (const [key, group] of byBase) {
    const first = group[0];
    if (first && !taken.has(key)) {
      result.set(first.id, safeFileName(first.name));
      taken.add(key);
    }
  }
  for (const item of sorted) {
    if (result.has(item.id)) continue;
    const base = safeFileName(item.name);
    const kind = safeFileName(item.kind);
    const candidates = [`${base} (${kind})`, `${base} (${kind} ${safeFileName(item.id).slice(0, 8)})`];
    let chosen = candidates.find((c) => !taken.has(c.toLowerCase()));
    for (let n = 2; chosen === undefined; n += 1) {
      const c = `${base} (${kind} ${safeFileName(item.id)} ${n})`;
      if (!taken.has(c.toLowerCase())) chosen = c;
    }
    taken.add(chosen.toLowerCase());
    result.set(item.id, chosen);
  }
  return result;
}
