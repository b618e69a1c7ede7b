import { describe, expect, it } from 'vitest';
import { questionAsksChange, questionAsksEdge } from './edge-cues.js';

describe('does a question ask about an edge', () => {
  it.each([
    ['What European countries has Maria been to?', 'VISITED', 'Spain'],
    ['Which cities has John traveled to?', 'VISITED', 'Chicago'],
    ['Where did Caroline move from 4 years ago?', 'FROM', 'Sweden'],
    ['What pets does Melanie have?', 'OWNS', 'Luna'],
    ['Which books has Tim read?', 'READ', 'The Hobbit'],
    // The other end named is enough, whatever the kind of edge.
    ['What did Maria do in Spain?', 'HAS_PERIOD', 'Spain'],
  ])('%s → %s %s', (question, type, otherName) => {
    expect(questionAsksEdge(question, { type, otherName })).toBe(true);
  });

  it.each([
    ['What shelters does Maria volunteer at?', 'VISITED', 'Spain'],
    ['What did Jon say about the store?', 'OWNS', 'Luna'],
    ["What is Maria's childhood like?", 'VISITED', 'Oregon'],
    // A name inside another word is not the name.
    ['What did Ali read about Dali?', 'VISITED', 'Ali Baba'],
  ])('not: %s (%s %s)', (question, type, otherName) => {
    expect(questionAsksEdge(question, { type, otherName })).toBe(false);
  });
});

describe('questionAsksChange', () => {
  it.each([
    ['When did Melanie run a charity race?', 'Melanie', 'Ran a charity race (last Sunday [21 May 2023])', true],
    ['When did Melanie run a charity race?', 'Melanie', 'Painted that lake sunrise', false],
    // The entity's own name is no shared word.
    ['What did Melanie do?', 'Melanie', 'Melanie went camping', false],
    ['When did Nate get purple hair?', 'Nate', 'Dyed my hair last week', true],
  ])('%s / %s: %s → %s', (question, name, text, asked) => {
    expect(questionAsksChange(question, name)(text)).toBe(asked);
  });
});
