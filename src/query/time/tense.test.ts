import { describe, expect, it } from 'vitest';
import { clauseTense, occurrenceFor } from './tense.js';

const tenseAt = (text: string, said: string) => {
  const from = text.indexOf(said);
  return clauseTense(text, from, from + said.length);
};

describe('clauseTense', () => {
  it.each([
    ["I'm flying to Rome on Friday.", 'on Friday', 'future'],
    ['What am I doing on Friday?', 'on Friday', 'future'],
    ["I'm thinking of a shoe tree for the boots I got on January 15th.", 'on January 15th', 'past'],
    ['I was going to go on Friday but it rained.', 'on Friday', 'past'],
    ['On Saturday we are hosting a dinner.', 'On Saturday', 'future'],
    ['On Friday, I got great news.', 'On Friday', 'past'],
    // The clause ends at a sentence's end, not at an abbreviation's point.
    ["I'll see Dr. Johnson on Friday.", 'on Friday', 'future'],
    ['I went home. I will run on Friday.', 'on Friday', 'future'],
    ["It was a long week, but I'll rest on Sunday.", 'on Sunday', 'future'],
    // "so" before an adjective ends no clause.
    ["I'll be so excited on Friday.", 'on Friday', 'future'],
    // After a determiner or a possessive a past form is an adjective, not the clause's verb.
    ['The numbness in my left hand is why I have a test on April 1st.', 'on April 1st', null],
    ['I sold the used car on Friday.', 'on Friday', 'past'],
    // An arrangement in place now is to come; one that was is not.
    ['I have an EMG test scheduled with Dr. Johnson on April 1st.', 'on April 1st', 'future'],
    ["I've booked a table for Friday.", 'for Friday', 'future'],
    ['It was scheduled for Friday.', 'for Friday', 'past'],
    ["We're planning a party on Friday.", 'on Friday', 'future'],
    ['I have experience with event planning from the Walk for Wildlife in June.', 'in June', null],
    ['I was thinking of planning a special practice for the week of June 1st.', 'June 1st', 'future'],
    // A colon ends a clause; a time's colon does not.
    ["I'll list them out: March 18th, the market, $220.", 'March 18th', null],
    ["I'll meet you at 10:30 on Friday.", 'on Friday', 'future'],
    ['Any charity events in June?', 'in June', null],
    ['I need a break on Friday.', 'on Friday', null],
  ])('%s → %s', (text, said, tense) => {
    expect(tenseAt(text, said)).toBe(tense);
  });
});

describe('occurrenceFor', () => {
  // The same day in three years, and a "now" between the second and the third, nearer the third.
  const starts = [100, 200, 300];
  it.each([
    ['future', 280, 300],
    ['past', 280, 200],
    [null, 280, 300],
    [null, 220, 200],
    ['past', 50, undefined],
  ] as const)('%s at %i → %s', (tense, now, expected) => {
    expect(occurrenceFor(starts, now, tense)).toBe(expected);
  });
});
