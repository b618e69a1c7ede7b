import { describe, expect, it } from 'vitest';
import { questionAsksChange, questionAsksEdge, questionAsksEntity } from './edge-cues.js';

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

  it('asks a bare acquaintance by its own words only, a KNOWS with a role by the name too', () => {
    const bare = { type: 'KNOWS', otherName: 'Gina', properties: {} };
    expect(questionAsksEdge("What did Jon say about Gina's store?", bare)).toBe(false);
    expect(questionAsksEdge('How long have Jon and Gina been friends?', bare)).toBe(true);
    expect(questionAsksEdge("What did Jon say about Gina's store?", { ...bare, properties: { role: 'sister' } })).toBe(
      true,
    );
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

describe('questionAsksEntity (an entity the question does not name)', () => {
  const block = (name: string, type: string, edge: string, texts: string[] = []) => ({
    entity: { name, type },
    relationships: [{ relationship: { type: edge } }],
    texts,
  });
  const recipe = 'What are the main ingredients of the ice cream recipe shared by Nate?';

  it('is not asked about when only its link to the named person matches', () => {
    expect(questionAsksEntity(recipe, ['Nate'])(block('Little Women', 'movie', 'WATCHED'))).toBe(false);
    expect(questionAsksEntity(recipe, ['Nate'])(block('Cyberpunk 2077', 'game', 'PLAYED'))).toBe(false);
  });

  it.each([
    // Its kind of link is what the question asks about.
    ['Which movies has Nate watched?', block('Little Women', 'movie', 'WATCHED')],
    // Its name, type or one of its changes shares a word of the question.
    [recipe, block('Coconut ice cream', 'concept', 'RELATED_TO')],
    ['What projects is Nate working on?', block('Tidepool', 'project', 'RELATED_TO')],
    [recipe, block('Cooking show', 'project', 'RELATED_TO', ['Shared a vegan ice cream recipe'])],
  ])('is asked about: %s', (question, b) => {
    expect(questionAsksEntity(question, ['Nate'])(b)).toBe(true);
  });

  it('is asked about when the question has no word beside the names', () => {
    expect(questionAsksEntity('Who is Nate?', ['Nate'])(block('Little Women', 'movie', 'WATCHED'))).toBe(true);
  });
});
