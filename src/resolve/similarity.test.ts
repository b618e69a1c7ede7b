import { describe, expect, it } from 'vitest';
import {
  jaroWinkler,
  jaroWinklerCeiling,
  jaroWinklerLengthCeiling,
  letterCounts,
  presentLetters,
} from './similarity.js';
import { createRng } from '../domain/prng.js';

const profile = (text: string) => ({ length: text.length, counts: letterCounts(text) });

/** The reference definition (arrays of flags allocated per call), for the reused-buffer version to agree with. */
function reference(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const am = new Array<boolean>(a.length).fill(false);
  const bm = new Array<boolean>(b.length).fill(false);
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = Math.max(0, i - window); j <= Math.min(b.length - 1, i + window); j++) {
      if (bm[j] || a[i] !== b[j]) continue;
      am[i] = bm[j] = true;
      m++;
      break;
    }
  }
  if (m === 0) return 0;
  let t = 0;
  let k = 0;
  for (let i = 0; i < a.length; i++) {
    if (!am[i]) continue;
    while (!bm[k]) k++;
    if (a[i] !== b[k]) t++;
    k++;
  }
  const jaro = (m / a.length + m / b.length + (m - t / 2) / m) / 3;
  let p = 0;
  while (p < 4 && p < a.length && p < b.length && a[p] === b[p]) p++;
  return jaro + p * 0.1 * (1 - jaro);
}

const random = createRng;

describe('jaroWinkler', () => {
  it.each([
    ['martha', 'marhta', 0.961],
    ['dixon', 'dicksonx', 0.813],
    ['priyanka raman', 'priyanka ramen', 0.971],
    ['same', 'same', 1],
    ['', 'x', 0],
    ['abc', 'xyz', 0],
  ])('%s ~ %s ≈ %f', (a, b, want) => {
    expect(jaroWinkler(a, b)).toBeCloseTo(want, 3);
  });

  it('agrees with the reference exactly, and never exceeds its ceiling, on random names (long ones too)', () => {
    const rnd = random(7);
    const alphabet = 'aaabcdeeefghiiklmnoorsttuy  0123é';
    const word = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
    for (let k = 0; k < 3000; k++) {
      const a = word(Math.floor(rnd() * (k % 100 === 0 ? 300 : 24)));
      // Often a near copy, so that high scores are tried too.
      const b =
        rnd() < 0.5
          ? a.replace(/[aeiou]/, 'x').slice(0, a.length - Math.floor(rnd() * 3))
          : word(Math.floor(rnd() * 24));
      const score = jaroWinkler(a, b);
      expect(score).toBe(reference(a, b));
      expect(jaroWinklerCeiling(profile(a), profile(b))).toBeGreaterThanOrEqual(score - 1e-12);
      // With the texts, the prefix bonus is their own: still never below the score.
      expect(jaroWinklerCeiling({ ...profile(a), text: a }, { ...profile(b), text: b })).toBeGreaterThanOrEqual(
        score - 1e-12,
      );
      // Summing only the buckets present gives the same bound.
      const present = (x: string) => ({ ...profile(x), text: x, present: presentLetters(letterCounts(x)) });
      expect(jaroWinklerCeiling(present(a), present(b))).toBe(
        jaroWinklerCeiling({ ...profile(a), text: a }, { ...profile(b), text: b }),
      );
      expect(
        jaroWinklerLengthCeiling({ length: a.length, text: a }, { length: b.length, text: b }),
      ).toBeGreaterThanOrEqual(jaroWinklerCeiling({ ...profile(a), text: a }, { ...profile(b), text: b }) - 1e-12);
    }
  });

  it('the ceiling rules out names of very different length or letters', () => {
    expect(jaroWinklerCeiling(profile('tidepool'), profile('tidepool analytics group'))).toBeLessThan(0.94);
    expect(jaroWinklerCeiling(profile('maya chen'), profile('maya patel'))).toBeLessThan(0.94);
    expect(jaroWinklerCeiling(profile('priyanka raman'), profile('priyanka ramen'))).toBeGreaterThan(0.94);
    expect(jaroWinklerCeiling(profile(''), profile(''))).toBe(1);
    // Names that start differently get no prefix bonus: with their texts the bound says so.
    const texts = (x: string) => ({ ...profile(x), text: x });
    expect(jaroWinklerCeiling(profile('tidepool'), profile('bidepools'))).toBeGreaterThan(0.92);
    expect(jaroWinklerCeiling(texts('tidepool'), texts('bidepools'))).toBeLessThan(0.89);
    expect(jaroWinklerLengthCeiling(texts('tidepool'), texts('tidepool analytics group'))).toBeLessThan(0.94);
    expect(jaroWinklerLengthCeiling(texts('priyanka raman'), texts('priyanka ramen'))).toBe(1);
  });
});
