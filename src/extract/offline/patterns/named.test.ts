import { beforeAll, describe, expect, it } from 'vitest';
import type { ExtractionResult } from '../../result.js';
import { loadSpanTagger, type SpanTagger } from '../nlp.js';
import { said } from '../test-kit.js';

let tagger: SpanTagger;
beforeAll(async () => {
  tagger = await loadSpanTagger();
});

const typeOf = (r: ExtractionResult, name: string) => r.entities.find((e) => e.name === name)?.type;

describe('things a speaker introduces by name', () => {
  it.each([
    ['Yeah, at the event, I had a conversation with someone named David.', 'David', 'person'],
    ['I heard some cool stories from an elderly veteran named Samuel.', 'Samuel', 'person'],
    ['While volunteering yesterday, I met this amazing woman, Jean, who had been through a lot.', 'Jean', 'person'],
    ['We grew up in a little town called Woodhaven.', 'Woodhaven', 'place'],
    ['I joined a band called Velvet Hours last month.', 'Velvet Hours', 'organization'],
    ["Guess what - I got a puppy two weeks ago! Her name's Coco and she is adorable.", 'Coco', 'pet'],
    ['I adopted a puppy named Biscuit.', 'Biscuit', 'pet'],
  ])('%s → %s (%s)', (text, name, type) => {
    expect(typeOf(said('Maria', text, tagger), name)).toBe(type);
  });

  it.each([
    // A noun this does not know names nothing; a capitalized word after "called" that is no name neither.
    ['I bought a thing called Whatever.', 'Whatever'],
    ['She called Mom yesterday.', 'Mom'],
    ['That song is called Yes.', 'Yes'],
    // A work's title without quotes has no clear end.
    ['We watched a movie called Manchester by the Sea.', 'Manchester'],
    // A quoted title is a work's, not the group's: "one (a script) with my group called …".
    ['I\'m working on one with my group called "Finding Home." It\'s a script.', 'Finding Home'],
  ])('nothing named in: %s', (text, name) => {
    expect(typeOf(said('Maria', text, tagger), name)).toBeUndefined();
  });
});
