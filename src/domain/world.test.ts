import { describe, expect, it } from 'vitest';
import { genericLast, GENERIC_RELATIONSHIP, isBareCreation, startWord } from './world.js';

describe('how relationships read', () => {
  it('a visit, a book read or a film watched happened by a date; a standing link holds since one', () => {
    for (const type of ['VISITED', 'READ', 'WATCHED', 'LISTENED_TO', 'PLAYED']) expect(startWord(type)).toBe('by');
    for (const type of ['WORKS_AT', 'LIVES_IN', 'OWNS', GENERIC_RELATIONSHIP]) expect(startWord(type)).toBe('since');
  });

  it("where someone is from, kin and a period of one's life are known by the day they were told, not held since", () => {
    for (const type of ['FROM', 'FAMILY_OF', 'HAS_PERIOD']) expect(startWord(type)).toBe('by');
  });

  it('puts the generic co-mention link after typed ones', () => {
    const sorted = [{ type: GENERIC_RELATIONSHIP }, { type: 'VISITED' }].sort(
      (a, b) => genericLast(a) - genericLast(b),
    );
    expect(sorted.map((r) => r.type)).toEqual(['VISITED', GENERIC_RELATIONSHIP]);
  });

  it('knows a creation that only says where the entity came up', () => {
    expect(isBareCreation({ kind: 'creation', summary: 'First mentioned in “session 3”' })).toBe(true);
    expect(isBareCreation({ kind: 'creation', summary: 'Started Tidepool' })).toBe(false);
    expect(isBareCreation({ kind: 'update', summary: 'First mentioned in “session 3”' })).toBe(false);
  });
});
