import { describe, expect, it } from 'vitest';
import { keywordText, questionKeywords } from './keywords.js';

describe('questionKeywords', () => {
  it('drops question words, auxiliaries and pronouns, keeps the topic', () => {
    expect(questionKeywords('How has my thinking about knowledge graphs evolved?')).toEqual([
      'thinking',
      'knowledge',
      'graphs',
    ]);
  });
  it('strips possessives, keeps numbers and dedupes case-insensitively', () => {
    expect(questionKeywords("What was Maya's plan in 2024? maya PLAN")).toEqual(['Maya', 'plan', '2024']);
  });
  it('leaves out words that only signal intent or time, and the time references the planner parsed', () => {
    expect(questionKeywords('What is the current state of Kestrel Notes?')).toEqual(['Kestrel', 'Notes']);
    expect(questionKeywords('What did I cook last spring with Maya?', ['last spring'])).toEqual(['cook', 'Maya']);
    expect(keywordText('What happened 3 weeks ago?', ['3 weeks ago'])).toBeNull();
  });

  it('drops what contractions leave once the apostrophe splits them', () => {
    expect(questionKeywords("I've got free time tonight, don't you have documentary ideas?")).toEqual([
      'free',
      'time',
      'tonight',
      'documentary',
      'ideas',
    ]);
  });

  it('returns null text when nothing is left', () => {
    expect(keywordText('What is it?')).toBeNull();
    expect(keywordText('  ')).toBeNull();
  });
});
