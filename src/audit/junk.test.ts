import { describe, expect, it } from 'vitest';
import { junkReason, petContext } from './junk.js';

describe('junkReason', () => {
  it.each([
    ['she', 'person', 'pronoun'],
    ['the and', 'concept', 'stop-words'],
    ['right now its enough', 'person', 'fragment'],
    ['go with this book that writes about bird watching guides', 'place', 'sentence'],
    ['useState()', 'tool', 'code'],
    ['src/index.ts', 'tool', 'code'],
    ['Monday', 'person', 'date'],
    ['May 2023', 'place', 'date'],
  ])('%s (%s) is junk: %s', (name, type, kind) => {
    expect(junkReason({ name, type })?.kind).toBe(kind);
  });

  it.each([
    ['Caroline', 'person'],
    ['Boston', 'place'],
    ['The Beatles', 'organization'],
    ['LGBTQ support group', 'organization'],
    ['May', 'person'],
    ['knowledge graphs beat pure vector search for personal memory', 'belief'],
  ])('%s (%s) is not junk', (name, type) => {
    expect(junkReason({ name, type })).toBeNull();
  });

  it('a pet named as a person is retyped; a breed is archived; a title of a work is archived', () => {
    expect(junkReason({ name: 'Max', type: 'person' }, ['My dog Max loves the beach.'])).toMatchObject({
      kind: 'pet-as-person',
      action: { kind: 'retype', type: 'pet' },
    });
    expect(junkReason({ name: 'Chihuahua', type: 'place' }, ['We got a Chihuahua puppy last week!'])).toMatchObject({
      kind: 'breed-or-animal',
      action: { kind: 'archive' },
    });
    expect(
      junkReason({ name: 'Becoming Nicole', type: 'person' }, ['I loved the book called Becoming Nicole.']),
    ).toMatchObject({ kind: 'work-as-person' });
    expect(junkReason({ name: 'Max', type: 'person' }, ['Max is my brother and he loves hiking.'])).toBeNull();
  });
});

describe('petContext', () => {
  it.each([
    ['Luna', ['our cat Luna sleeps all day'], 'pet'],
    ['Coco', ['I got a puppy named Coco!'], 'pet'],
    ['Oscar', ['Oscar, my guinea pig, is funny.'], 'pet'],
    ['Jack Russell', ['She is a Jack Russell mix.'], 'breed'],
    ['Sam', ['Sam is my friend from school.'], null],
  ])('%s in %j → %s', (name, sentences, expected) => {
    expect(petContext(name, sentences)).toBe(expected);
  });
});
