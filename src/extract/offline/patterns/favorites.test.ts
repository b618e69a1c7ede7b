import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpanTagger, type SpanTagger } from '../nlp.js';
import { said } from '../test-kit.js';

let tagger: SpanTagger;
beforeAll(async () => {
  tagger = await loadSpanTagger();
});

const favorites = (text: string) =>
  said('Tim', text, tagger)
    .stateChanges.filter((c) => c.attribute?.startsWith('favorite_'))
    .map((c) => [c.entityName, c.attribute, c.newStateAspect]);

describe('favourites', () => {
  it.each([
    ['Harry Potter is my favorite book.', 'favorite_book', 'Harry Potter'],
    ['My favorite character is Aragorn, he grows so much throughout the story.', 'favorite_character', 'Aragorn'],
    [
      'Hey Nate, my favorite dairy-free treat is this amazing chocolate raspberry tart.',
      'favorite_dairy-free_treat',
      'amazing chocolate raspberry tart',
    ],
    ['My fave style of dance is contemporary!', 'favorite_style_of_dance', 'contemporary'],
    ['Lord of the Rings is my favorite movie trilogy ever.', 'favorite_movie_trilogy', 'Lord of the Rings'],
    ['Contemporary is my favorite style of dance, it is so expressive.', 'favorite_style_of_dance', 'Contemporary'],
    ['My new favorite snack is the coconut milk ice cream.', 'favorite_snack', 'coconut milk ice cream'],
  ])('%s', (text, attribute, value) => {
    expect(favorites(text)).toEqual([['Tim', attribute, value]]);
  });

  it.each([
    // One of several: no state a later one replaces.
    'The Hobbit is one of my favorites too.',
    // No kind: the next favourite would replace it whatever it is.
    "Blue's my fave, it makes me feel relaxed.",
    'It is my favorite for birthdays and special days.',
    // A moment or a part is what happened, not what the speaker likes; a past favourite is no state now.
    'My favorite part was the ending.',
    'My favorite memory is when we won the regionals.',
    'Harry Potter was my favorite book as a kid.',
    // A pointer, a question, a hedge, a negation.
    'My favorite one to jam to is a theme from a movie.',
    'That is my favorite song.',
    'Is Dune your favorite book?',
    'Maybe Dune is my favorite book.',
    "Dune isn't my favorite book.",
  ])('no favourite in: %s', (text) => {
    expect(favorites(text)).toEqual([]);
  });
});
