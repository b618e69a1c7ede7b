import { describe, expect, it } from 'vitest';
import { chooseTimeFormat, classifyIntent, wantsHistory } from './intent.js';
import type { Intent } from './types.js';

describe('classifyIntent (rules)', () => {
  const cases: [string, number, number, Intent][] = [
    ['How has my thinking about knowledge graphs evolved?', 1, 0, 'temporal_diff'],
    ['What changed between freshman year and the gap semester?', 0, 2, 'temporal_diff'],
    ['What did I do in May 2024 compared to June 2024?', 0, 2, 'temporal_diff'],
    ['What is the current state of Tidepool?', 1, 0, 'current_state'],
    ['Am I still using Neo4j?', 1, 0, 'current_state'],
    ['Who is Maya?', 1, 0, 'entity_lookup'],
    ['Tell me about Tidepool', 1, 0, 'entity_lookup'],
    ['How do I usually approach a new project?', 0, 0, 'procedural'],
    ['What is my workflow for writing papers?', 0, 0, 'procedural'],
    ['How is Maya connected to Tidepool?', 2, 0, 'relationship'],
    ['What is the relationship between FalkorDB and PIE?', 2, 0, 'relationship'],
    ['What contradictions are there in my beliefs?', 0, 0, 'contradiction'],
    ['Where did I change my mind about vector search?', 1, 0, 'contradiction'],
    ['What did I eat in Lisbon?', 0, 0, 'general'],
    // "connected" with fewer than two named entities is not a path question.
    ['Who am I connected to?', 0, 0, 'general'],
    // "Who is X" with nothing named is not an entity lookup.
    ['Who is the best?', 0, 0, 'general'],
  ];
  it.each(cases)('%s → %s', (question, namedEntities, timeRanges, expected) => {
    expect(classifyIntent({ question, namedEntities: namedEntities, timeRanges })).toBe(expected);
  });
});

describe('wantsHistory: current state by default, history on request', () => {
  const cases: [string, Intent, boolean, boolean][] = [
    ['What is the current state of Tidepool?', 'current_state', false, false],
    ['What database does PIE use?', 'general', false, false],
    ['What database did PIE use before?', 'general', false, true],
    ['What did I use to think about vector search?', 'general', false, true],
    ['Who is Maya?', 'entity_lookup', false, false],
    ['What did I work on?', 'general', true, true],
    ['How has Tidepool evolved?', 'temporal_diff', false, true],
    ['What conflicts?', 'contradiction', false, true],
  ];
  it.each(cases)('%s (%s, past range %s) → %s', (question, intent, pastRange, expected) => {
    expect(wantsHistory({ question, intent, pastRange })).toBe(expected);
  });
});

describe('chooseTimeFormat (auto)', () => {
  it.each([
    ['When did I start Tidepool?', 'absolute'],
    ['What date did I move to San Francisco?', 'absolute'],
    ['In what year did I join UMD?', 'absolute'],
    ['How long have I been working on Tidepool?', 'semantic'],
    ['How many months did the internship last?', 'semantic'],
    ['How has my thinking evolved?', 'hybrid'],
    ['What is Tidepool?', 'hybrid'],
  ] as const)('%s → %s', (question, format) => {
    expect(chooseTimeFormat(question)).toBe(format);
  });

  it('a duration question naming a day or a month keeps dates (hybrid); other time ranges do not', () => {
    const q = 'On April 27th, how long did I run?';
    expect(chooseTimeFormat(q, [{ kind: 'explicit' }])).toBe('hybrid');
    expect(chooseTimeFormat('How long did I run in May?', [{ kind: 'month' }])).toBe('hybrid');
    expect(chooseTimeFormat('How long did I run last week?', [{ kind: 'relative' }])).toBe('semantic');
    expect(chooseTimeFormat('When did I run on April 27th?', [{ kind: 'explicit' }])).toBe('absolute');
  });
});
