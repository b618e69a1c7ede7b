/**
 * Vector similarity, pure. The exact nearest-neighbour ranking every store uses when it scans vectors itself
 * (SQLite, PostgreSQL without pgvector), and that the pgvector path applies to the candidates its index returns,
 * so that every adapter scores alike.
 */

/** Cosine similarity of two vectors over their common length; 0 when either has length (norm) zero. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export interface VectorCandidate {
  ownerId: string;
  vector: ArrayLike<number>;
}

export interface VectorHit {
  ownerId: string;
  /** Cosine similarity with the query, in [-1, 1]. */
  score: number;
}

/** The sum of squares, or null when the vector cannot be compared (norm zero, or a NaN or infinite value). */
function squaredNorm(vector: ArrayLike<number>): number | null {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i] ?? Number.NaN;
    sum += x * x;
  }
  return sum > 0 && Number.isFinite(sum) ? sum : null;
}

/** Best first; equal scores by ownerId in code-unit order (PostgreSQL's "C" collation, SQLite's BINARY). */
export function compareHits(a: VectorHit, b: VectorHit): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.ownerId === b.ownerId) return 0;
  return a.ownerId < b.ownerId ? -1 : 1;
}

/**
 * The `limit` candidates most similar to `query` by cosine similarity, best first, ties by ownerId. Candidates of
 * another length than the query are left out (vectors of different sizes are not comparable), and so are those
 * with norm zero or a NaN or infinite value (pgvector cannot compare them either); such a query finds nothing.
 */
export function nearestByCosine(input: {
  query: ArrayLike<number>;
  candidates: Iterable<VectorCandidate>;
  limit: number;
}): VectorHit[] {
  const { query, limit } = input;
  const qq = squaredNorm(query);
  if (qq === null || limit <= 0) return [];
  const hits: VectorHit[] = [];
  for (const candidate of input.candidates) {
    const vector = candidate.vector;
    if (vector.length !== query.length) continue;
    const vv = squaredNorm(vector);
    if (vv === null) continue;
    let dot = 0;
    for (let i = 0; i < vector.length; i++) dot += (query[i] ?? 0) * (vector[i] ?? 0);
    // The same arithmetic as `cosine`, so scores equal what the brute-force lanes computed before.
    hits.push({ ownerId: candidate.ownerId, score: dot / Math.sqrt(qq * vv) });
  }
  return hits.sort(compareHits).slice(0, limit);
}
