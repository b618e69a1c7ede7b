import type { ContextRecord, ContextSystem } from './run.js';

/**
 * The paired reading of an answer-in-context run (docs/evaluation.md "Paired by question"): both systems answer the
 * same questions, so what tells them apart is the questions only one of them has the answer for. A difference of a
 * few points in a small group can be two questions; the exact sign test says how often a difference at least that
 * lopsided comes from two systems that are equally good. Pure.
 */

/** Questions where only the first system, or only the second, has the answer in its context. */
export interface Discordant {
  onlyA: number;
  onlyB: number;
}

/**
 * Exact two-sided sign test: the probability, were each discordant question a fair coin, of a split at least as
 * uneven as `a` against `b` (1 when there is none).
 */
export function signTestP(a: number, b: number): number {
  const n = a + b;
  if (n === 0) return 1;
  const k = Math.min(a, b);
  // Sum C(n, i) / 2^n for i ≤ k, in logs so that n in the thousands stays finite.
  let logC = 0;
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logC - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

/** Per question of `records` (filtered by `inGroup`), at `budget`: where only `a` or only `b` has the answer. */
export function discordant(input: {
  records: readonly ContextRecord[];
  inGroup: (r: ContextRecord) => boolean;
  budget: number;
  a: ContextSystem;
  b: ContextSystem;
}): Discordant {
  let onlyA = 0;
  let onlyB = 0;
  for (const r of input.records) {
    if (!input.inGroup(r)) continue;
    const hit = (s: ContextSystem) => r.results.find((x) => x.system === s && x.budget === input.budget)?.hit;
    const [a, b] = [hit(input.a), hit(input.b)];
    if (a === undefined || b === undefined || a === b) continue;
    if (a) onlyA += 1;
    else onlyB += 1;
  }
  return { onlyA, onlyB };
}

/** "76 / 17 (p < 0.001)", "5 / 9 (p = 0.42)", "0 / 0". */
export function discordantCell(d: Discordant): string {
  if (d.onlyA + d.onlyB === 0) return '0 / 0';
  const p = signTestP(d.onlyA, d.onlyB);
  const shown = p < 0.001 ? 'p < 0.001' : `p = ${p < 0.1 ? p.toFixed(3) : p.toFixed(2)}`;
  return `${d.onlyA} / ${d.onlyB} (${shown})`;
}
