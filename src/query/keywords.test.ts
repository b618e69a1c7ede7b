import { describe, expect, it } from 'vitest';
import { keywordText, questionKeywords } from './keywords.js';

describe('questionKeywords', () => {
  it('drops question words, auxiliaries and pronouns, keeps the topic', () => {
    expect(questionKeywords('How has my thinking about knowledge graphs evolved?')).toEqual([
      'thinking',
      'knowledge',
      'graphs',
      'evolved',
    ]);
  });
  it('strips possessives, keeps numbers and dedupes case-insensitively', () => {
    expect(questionKeywords("What was Maya's plan in 2024? maya PLAN")).toEqual(['Maya', 'plan', '2024']);
  });
  it('returns null text when nothing is left', () => {
    expect(keywordText('What is it?')).toBeNull();
    expect(keywordText('  ')).toBeNull();
  });
});
