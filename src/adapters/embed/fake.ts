import { createHash } from 'node:crypto';
import type { Embedder } from '../../ports/embedder.js';

/**
 * A deterministic fake embedder for tests (no weights can be downloaded here): character-trigram hashing into a
 * fixed number of dimensions, so texts that share spelling are close and unrelated texts are not. `synonyms` lists
 * groups of texts that must embed identically (to exercise semantic matches like "Mom" ↔ "Sunita Kumar").
 */
export function createFakeEmbedder(input: { dimensions?: number; synonyms?: string[][] } = {}): Embedder {
  const dimensions = input.dimensions ?? 64;
  const canonical = new Map<string, string>();
  for (const group of input.synonyms ?? [])
    for (const text of group) canonical.set(text.toLowerCase(), group[0] ?? text);
  const vector = (text: string): number[] => {
    const t = ` ${(canonical.get(text.toLowerCase()) ?? text).toLowerCase()} `;
    const v = new Array<number>(dimensions).fill(0);
    for (let i = 0; i + 3 <= t.length; i++) {
      const h = createHash('md5')
        .update(t.slice(i, i + 3))
        .digest();
      const slot = h.readUInt16BE(0) % dimensions;
      v[slot] = (v[slot] ?? 0) + (h[2]! % 2 === 0 ? 1 : -1);
    }
    const norm = Math.sqrt(v.reduce((n, x) => n + x * x, 0)) || 1;
    return v.map((x) => x / norm);
  };
  return { model: `fake:trigram-${dimensions}`, dimensions, embed: async (texts) => texts.map(vector) };
}
