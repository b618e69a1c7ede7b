import { describe, expect, it } from 'vitest';
import {
  answerAlternatives,
  answerInText,
  answerParts,
  contextBody,
  isBareNumber,
  isShortAnswer,
  normalizeForMatch,
  pairParts,
  parseDateAnswer,
} from './match.js';

describe('normalizeForMatch', () => {
  it.each([
    ['Caroline’s necklace!', 'caroline necklace'],
    ['Café au lait', 'cafe au lait'],
    ['Two dogs and THREE cats', '2 dogs and 3 cats'],
    ['the 7th of May', 'the 7 of may'],
    ['$1,200.50 total', '120050 total'],
    ['self-care', 'self care'],
    ['  many   spaces ', 'many spaces'],
    ['The week before 15April, 2022.', 'the week before 15 april 2022'],
    ['3June', '3 june'],
    ['100mg', '100mg'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeForMatch(input)).toBe(expected);
  });
});

describe('answerParts', () => {
  it.each([
    ['Sweden', ['Sweden']],
    ['pottery, camping, painting, swimming', ['pottery', 'camping', 'painting', 'swimming']],
    ['pottery, camping and painting', ['pottery', 'camping', 'painting']],
    ['Running; pottery', ['Running', 'pottery']],
    ['$1,200', ['$1,200']],
    ['salt and pepper', ['salt and pepper']],
  ])('%s', (answer, parts) => {
    expect(answerParts(answer)).toEqual(parts);
  });
});

describe('pairParts', () => {
  it.each([
    ['clarinet and violin', ['clarinet', 'violin']],
    ['Fetch & Frisbee', ['Fetch', 'Frisbee']],
    ['salt and pepper and oil', ['salt', 'pepper', 'oil']],
    ['pottery, camping and painting', null],
    ['Sweden', null],
    ['an hour and a half', null],
    ['4 years and 9 months', null],
  ])('%s', (answer, parts) => {
    expect(pairParts(answer)).toEqual(parts);
  });
});

describe('answerAlternatives', () => {
  it.each([
    ['Sweden', ['Sweden']],
    ['30 days. 31 days (including the last day) is also acceptable.', ['30 days', '31 days']],
    ['8 days ago. 9 days (including the last day) is also acceptable.', ['8 days ago', '9 days']],
    [
      'One week. Answers ranging from 6 days to 8 days are also acceptable.',
      ['One week', '6 days', '7 days', '8 days'],
    ],
    ['Yes. No is also acceptable', ['Yes', 'No']],
    ['Mr. Smith is also acceptable', ['Mr. Smith is also acceptable']],
    [
      '3 days. Answers ranging from 1 day to 900 days are also acceptable.',
      ['3 days', 'Answers ranging from 1 day to 900 days'],
    ],
  ])('%s', (answer, expected) => {
    expect(answerAlternatives(answer)).toEqual(expected);
  });
});

describe('parseDateAnswer', () => {
  it.each([
    ['7 may 2023', { day: 7, month: 4, year: 2023 }],
    ['may 7 2023', { day: 7, month: 4, year: 2023 }],
    ['2023 05 07', { day: 7, month: 4, year: 2023 }],
    ['june 2023', { month: 5, year: 2023 }],
    ['7 may', { day: 7, month: 4 }],
    ['sept 3', { day: 3, month: 8 }],
    ['2022', null],
    ['the week before 9 june 2023', null],
    ['4 years', null],
  ])('%s', (text, expected) => {
    expect(parseDateAnswer(text)).toEqual(expected);
  });
});

describe('answerInText', () => {
  it.each([
    // [answer, text, expected]
    ['Sweden', 'She moved from Sweden 4 years ago.', true],
    ['sweden', 'Swedenborg wrote books', false],
    ['7 May 2023', '[3] 7 May 2023\nCaroline: I went yesterday', true],
    ['7 May 2023', 'On May 7, 2023 she went', true],
    ['7 May 2023', 'on 2023-05-07 she went', true],
    ['May 7, 2023', 'Session of 7 May 2023', true],
    ['7 May 2023', '8 May 2023: she went yesterday', false],
    ['June 2023', 'camping in June 2023 maybe', true],
    ['2022', 'she painted it in 2022', true],
    ['2022', 'she painted it in 20223', false],
    ['two', 'she has 2 kids', true],
    ['3', 'three kids', true],
    ['pottery, camping, painting', 'I love painting and pottery and camping', true],
    ['pottery, camping, painting', 'I love painting and pottery', false],
    ['"Nothing is Impossible", "Charlotte\'s Web"', 'I read Charlotte’s Web and Nothing is Impossible', true],
    ['The Four Seasons', 'she loves Four Seasons by Vivaldi', true],
    ['self-care is important', 'she realized self care is important', true],
    ['', 'anything', false],
    ['30 days. 31 days (including the last day) is also acceptable.', 'that was 31 days later', true],
    ['30 days. 31 days (including the last day) is also acceptable.', 'that was 30 days later', true],
    ['30 days. 31 days (including the last day) is also acceptable.', 'including the last day', false],
    ['One week. Answers ranging from 6 days to 8 days are also acceptable.', 'a gap of 7 days', true],
    ['One week. Answers ranging from 6 days to 8 days are also acceptable.', 'a gap of 9 days', false],
    // Parts joined by "and" alone may be written apart; a quantity's "and" joins one amount.
    ['clarinet and violin', 'I play my violin. … Yeah, I play clarinet!', true],
    ['clarinet and violin', 'Yeah, I play clarinet!', false],
    ['Fetch & Frisbee', 'we played frisbee, then fetch', true],
    ['Pride and Prejudice', 'she reread Pride and Prejudice', true],
    ['an hour and a half', 'an hour, then a half day', false],
    ['1 year and 5 months', 'after 1 year; 5 months later', false],
  ])('%s in %s → %s', (answer, text, expected) => {
    expect(answerInText(answer, text)).toBe(expected);
  });
});

describe('isShortAnswer', () => {
  it.each([
    ['Sweden', true],
    ['The sunday before 25 May 2023', true],
    ['by carving out some me-time each day for activities like running, reading, or playing the violin', false],
    ['pottery, camping, painting, swimming', true],
    ['30 days. 31 days (including the last day) is also acceptable.', true],
  ])('%s', (answer, expected) => {
    expect(isShortAnswer(answer)).toBe(expected);
  });
});

describe('contextBody', () => {
  const question = 'Which did I start first, pottery or camping?';
  it.each([
    // [answer, context, titles, found]
    ['pottery', `Question: ${question}\nNow: 2 May 2023.`, [], false],
    ['pottery', `Question: ${question}\nCaroline: I took up pottery last May.`, [], true],
    ['4', 'Caroline went camping [4]\n\nSources:\n  [4] “Chat”, 1 May 2023', [], false],
    ['4', '[1, 4] Caroline went camping', [], false],
    ['4', 'Caroline went camping with 4 friends [2]', [], true],
    ['2022', 'she painted it last year [2022]', [], true],
    [
      '3',
      '• “Caroline & Melanie — session 3”, 7 May 2023\n    Caroline: hi',
      ['Caroline & Melanie — session 3'],
      false,
    ],
    [
      '3',
      '• “Caroline & Melanie — session 3”, 7 May 2023\n    Caroline: 3 of them',
      ['Caroline & Melanie — session 3'],
      true,
    ],
    ['4', 'Charity ideas:\n4. **Fitness Challenges**: join one', [], false],
    ['4', 'Ideas: 1. … 2. … 3. … 4. … Use search engines', [], false],
    ['2', '    Assistant: Options 1) rest 2) fluids', [], true],
    ['4', 'I joined 4. Then I stopped', [], true],
    ['4', 'I went to 4 charity events. 2. Walks', [], true],
    ['March', 'Time asked about: "March" = 1 March 2023 to 31 March 2023.', [], true],
    ['last March', 'Time asked about: "last March" = 1 March 2023 to 31 March 2023.', [], false],
  ])('%s in %j (titles %j): %s', (answer, context, titles, found) => {
    expect(answerInText(answer, contextBody(context, { question, titles }))).toBe(found);
  });
});

describe('isBareNumber', () => {
  it.each([
    ['3', true],
    ['two', true],
    ['12th', true],
    ['31', true],
    ['45', false],
    ['$420', false],
    ['3 weeks', false],
    ['2023', false],
    ['Smart thermostat', false],
    ['4. 5 (counting the last one) is also acceptable.', true],
  ])('%s → %s', (answer, expected) => {
    expect(isBareNumber(answer)).toBe(expected);
  });
});
