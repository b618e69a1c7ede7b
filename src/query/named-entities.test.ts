import { describe, expect, it } from 'vitest';
import { nameInQuestion, pickNamed } from './named-entities.js';
import { entity } from './test-kit.js';

describe('pickNamed', () => {
  const tidepool = entity({ id: 'tp', name: 'Tidepool' });
  const tidepoolApp = entity({ id: 'tpa', name: 'Tidepool app', type: 'tool' });
  const maya = entity({ id: 'maya', name: 'Maya Chen', aliases: ['Maya'], type: 'person' });
  const umd = entity({ id: 'umd', name: 'University of Maryland', aliases: ['UMD'], type: 'organization' });
  const period = entity({ id: 'p', name: 'gap semester', type: 'period' });
  const all = [tidepool, tidepoolApp, maya, umd, period];

  it('finds names and aliases as whole phrases, most specific first', () => {
    expect(
      pickNamed({ question: 'How is Maya connected to the Tidepool app?', entities: all }).map((e) => e.id),
    ).toEqual(['tpa', 'maya']);
  });
  it('keeps a shorter name when it occurs on its own elsewhere', () => {
    const q = 'Did Tidepool change after the Tidepool app launched?';
    expect(pickNamed({ question: q, entities: all }).map((e) => e.id)).toEqual(['tpa', 'tp']);
  });
  it('matches acronyms, possessives and case-insensitively, never inside a word', () => {
    expect(pickNamed({ question: "what was maya's role at umd?", entities: all }).map((e) => e.id)).toEqual([
      'maya',
      'umd',
    ]);
    expect(pickNamed({ question: 'Mayan ruins and Tidepools', entities: all })).toEqual([]);
  });
  it('leaves period entities to the time parser', () => {
    expect(pickNamed({ question: 'What did I do in the gap semester?', entities: all })).toEqual([]);
  });
});

describe('nameInQuestion', () => {
  const maya = entity({ id: 'maya', name: 'Maya Chen', aliases: ['Maya', 'MC'], type: 'person' });
  it.each([
    ['Maya Chen', { name: 'Maya Chen', exact: true }],
    ['  maya chen! ', { name: 'Maya Chen', exact: true }],
    ["Maya's", { name: 'Maya', exact: true }],
    ['mc', { name: 'MC', exact: true }],
    ['what Maya Chen said', { name: 'Maya Chen', exact: false }],
    ['Maya at work', { name: 'Maya', exact: false }],
    ['Mayan ruins', null],
  ])('%j', (question, want) => {
    expect(nameInQuestion({ question, entity: maya })).toEqual(want);
  });
});
