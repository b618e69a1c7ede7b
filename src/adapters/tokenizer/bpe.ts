/**
 * Byte-pair counting for a tiktoken rank file, written for counting only: no token ids, no decoding.
 *
 * A text's bytes are held as a "binary string" (one character per byte, 0–255), so a run of bytes is its own Map
 * key and a merge looks up a substring. Building the ranks this way takes a tenth of the time the js-tiktoken
 * encoder's constructor does (it keys its map by comma-joined byte lists), and that constructor ran on every
 * `pie ask` before its first count.
 */

/** Byte strings of the encoding's tokens, by rank (lower merges first). */
export type Ranks = ReadonlyMap<string, number>;

/**
 * Reads js-tiktoken's compressed rank format: lines of `<prefix> <first rank> <base64 token> <base64 token> …`,
 * the tokens of one line ranked one after another from the first rank. Pure.
 */
export function parseRanks(compressed: string): Ranks {
  const ranks = new Map<string, number>();
  for (const line of compressed.split('\n')) {
    const fields = line.split(' ');
    if (fields.length < 3) continue;
    const first = Number.parseInt(fields[1] ?? '', 10);
    if (!Number.isInteger(first)) throw new Error(`Malformed tiktoken rank line starting "${line.slice(0, 40)}".`);
    for (let i = 2; i < fields.length; i++) ranks.set(atob(fields[i] ?? ''), first + i - 2);
  }
  return ranks;
}

/** A text's UTF-8 bytes as a binary string (lone surrogates become U+FFFD, as TextEncoder writes them). Pure. */
export function utf8Bytes(text: string): string {
  // eslint-disable-next-line no-control-regex -- the test is for ASCII, whose bytes are its characters.
  return /^[\x00-\x7f]*$/.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}

/**
 * How many tokens byte-pair encoding makes of one piece (the bytes of one match of the encoding's pattern): start
 * from single bytes and merge, again and again, the adjacent pair whose joined bytes have the lowest rank (the
 * leftmost of equal ranks), until no adjacent pair is a token. The same greedy order as tiktoken's, so the same
 * count. Quadratic in the piece's length: callers cut long pieces first. Pure.
 */
export function countPiece(bytes: string, ranks: Ranks): number {
  const n = bytes.length;
  if (n <= 1 || ranks.has(bytes)) return Math.min(n, 1);
  // starts[i] is where part i begins; starts[parts] === n.
  const starts: number[] = Array.from({ length: n + 1 }, (_, i) => i);
  // pairs[i] is the rank of parts i and i + 1 joined (Infinity when that is no token).
  const pairRank = (i: number): number => ranks.get(bytes.slice(starts[i], starts[i + 2])) ?? Infinity;
  const pairs: number[] = Array.from({ length: n - 1 }, (_, i) => pairRank(i));
  while (pairs.length > 0) {
    let best = 0;
    for (let i = 1; i < pairs.length; i++) if ((pairs[i] as number) < (pairs[best] as number)) best = i;
    if (pairs[best] === Infinity) break;
    starts.splice(best + 1, 1);
    pairs.splice(best, 1);
    if (best < pairs.length) pairs[best] = pairRank(best);
    if (best > 0) pairs[best - 1] = pairRank(best - 1);
  }
  return starts.length - 1;
}
