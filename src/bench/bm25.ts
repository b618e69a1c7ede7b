/**
 * A small Okapi BM25 (k1 = 1.2, b = 0.75) over in-memory documents: the naive baseline's ranker. Tokens are lower-case
 * letter/digit runs with English stop words removed, so it sees the same words PIE's lexical lane would.
 */
const STOP = new Set(
  (
    'a an and are as at be been but by did do does for from had has have he her his how i if in into is it its me my ' +
    'of on or our she so than that the their them then there these they this to was we were what when where which ' +
    'who whom why will with would you your yours about after before can could should any all also just not no yes'
  ).split(' '),
);

export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !STOP.has(t));
}

export interface Bm25Index<T> {
  search(query: string, limit: number): { doc: T; score: number }[];
}

export function buildBm25<T>(docs: readonly T[], textOf: (doc: T) => string, k1 = 1.2, b = 0.75): Bm25Index<T> {
  const tfs = docs.map((d) => {
    const tf = new Map<string, number>();
    for (const t of tokenize(textOf(d))) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  });
  const lengths = tfs.map((tf) => [...tf.values()].reduce((a, n) => a + n, 0));
  const avg = lengths.reduce((a, n) => a + n, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const tf of tfs) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  return {
    search(query, limit) {
      const terms = [...new Set(tokenize(query))];
      const scored: { doc: T; score: number; i: number }[] = [];
      docs.forEach((doc, i) => {
        const tf = tfs[i] as Map<string, number>;
        const len = lengths[i] ?? 0;
        let score = 0;
        for (const t of terms) {
          const f = tf.get(t);
          if (!f) continue;
          const idf = Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
          score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * len) / (avg || 1)));
        }
        if (score > 0) scored.push({ doc, score, i });
      });
      scored.sort((x, y) => y.score - x.score || x.i - y.i);
      return scored.slice(0, limit).map(({ doc, score }) => ({ doc, score }));
    },
  };
}
