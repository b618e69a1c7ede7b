import { describe, expect, it } from 'vitest';
import { questionInterval } from './interval.js';

describe('questionInterval', () => {
  it.each([
    [
      "How many days had passed between the Sunday mass at St. Mary's Church and the Ash Wednesday service at the cathedral?",
      'days',
      ["the Sunday mass at St. Mary's Church", 'the Ash Wednesday service at the cathedral'],
    ],
    ['How many weeks passed between Maria adopting Coco and Shadow?', 'weeks', ['Maria adopting Coco', 'Shadow']],
    [
      'How many days after I bought the bike did I go on my first ride?',
      'days',
      ['I bought the bike', 'I go on my first ride'],
    ],
    [
      'How many weeks had passed since I started the pottery class when I sold my first vase?',
      'weeks',
      ['I started the pottery class', 'I sold my first vase'],
    ],
    ['How many months have passed since I moved to Denver?', 'months', ['I moved to Denver']],
    [
      'How much time passed between my two dentist visits and the surgery?',
      'days',
      ['my two dentist visits', 'the surgery'],
    ],
    ['How many days after the wedding was the garden party?', 'days', ['the wedding', 'the garden party']],
    ['How long after I moved did I start the new job?', 'days', ['I moved', 'I start the new job']],
    [
      'How many days did it take for me to receive the new laptop after ordering it?',
      'days',
      ['ordering it', 'receive the new laptop'],
    ],
    ['How many days ago did I attend the jazz concert?', 'days', ['I attend the jazz concert']],
    ["How long ago was Caroline's 18th birthday?", 'days', ["Caroline's 18th birthday"]],
    ['How many days before the charity gala did I buy the dress?', 'days', ['I buy the dress', 'the charity gala']],
  ])('%s', (question, unit, ends) => {
    const found = questionInterval(question);
    expect(found?.unit).toBe(unit);
    expect(found?.ends.map((e) => e.text)).toEqual(ends);
    for (const end of found?.ends ?? []) expect(end.keys.length).toBeGreaterThan(0);
  });

  it.each([
    'How many doctor appointments did I go to in March?',
    'When did Caroline go to the LGBTQ support group?',
    'How long has Melanie been practicing art?',
    'How many days did the festival last?',
    // An end with no searchable word is no interval.
    'How many days passed between it and that?',
  ])('none: %s', (question) => {
    expect(questionInterval(question)).toBeNull();
  });

  it('leaves the time words out of the keys', () => {
    const found = questionInterval('How many days ago did I go hiking last month?', ['last month']);
    expect(found?.ends[0]?.keys).toEqual(['hikin']);
  });
});
