import { describe, expect, it } from 'vitest';
import { matchesOf } from './matches.js';

const viaMatchAll = (pattern: RegExp, text: string) => [...text.matchAll(pattern)].map((m) => [m.index, ...m]);
const viaMatchesOf = (pattern: RegExp, text: string) => matchesOf(pattern, text).map((m) => [m.index, ...m]);

describe('matchesOf', () => {
  it('finds what matchAll finds, groups and empty matches included, and leaves lastIndex at 0', () => {
    const cases: [RegExp, string][] = [
      [/\b(last|this)\s+(week|month)\b/gi, 'Last week, then this month and last Month.'],
      [/x*/g, 'axxb'],
      [/(?:)/gu, 'a😀b'],
      [/\d+/g, 'no digits'],
    ];
    for (const [pattern, text] of cases) {
      expect(viaMatchesOf(pattern, text)).toEqual(viaMatchAll(pattern, text));
      expect(pattern.lastIndex).toBe(0);
    }
  });

  it('refuses a pattern without the g flag, as matchAll does', () => {
    expect(() => matchesOf(/a/, 'a')).toThrow(TypeError);
  });
});
