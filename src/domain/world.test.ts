import { describe, expect, it } from 'vitest';
import { genericLast, GENERIC_RELATIONSHIP, startWord } from './world.js';

describe('how relationships read', () => {
  it('a visit, a book read or a film watched happened by a date; a standing link holds since one', () => {
    for (const type of ['VISITED', 'READ', 'WATCHED', 'LISTENED_TO', 'PLAYED']) expect(startWord(type)).toBe('by');
    for (const type of ['WORKS_AT', 'LIVES_IN', 'OWNS', 'FROM', GENERIC_RELATIONSHIP])
      expect(startWord(type)).toBe('since');
  });

  it('puts the generic co-mention link after typed ones', () => {
    const sorted = [{ type: GENERIC_RELATIONSHIP }, { type: 'VISITED' }].sort(
      (a, b) => genericLast(a) - genericLast(b),
    );
    expect(sorted.map((r) => r.type)).toEqual(['VISITED', GENERIC_RELATIONSHIP]);
  });
});
