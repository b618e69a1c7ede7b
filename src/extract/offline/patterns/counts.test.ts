import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpanTagger, type SpanTagger } from '../nlp.js';
import { said, T0 } from '../test-kit.js';

let tagger: SpanTagger;
beforeAll(async () => {
  tagger = await loadSpanTagger();
});

const counts = (text: string) =>
  said('Sam', text, tagger)
    .stateChanges.filter((c) => c.attribute !== 'latest_event')
    .map((c) => [c.entityName, c.attribute, c.newStateAspect]);

describe('counts the speaker reaches', () => {
  it.each([
    // LongMemEval S dev30: the count a later one replaces ("How many followers do I currently have?").
    ['By the way, I just reached 500 followers last week, and I hope to keep going.', 'followers', '500'],
    ["I just checked and I'm now at 600 followers, which is a nice milestone!", 'followers', '600'],
    ['My channel just hit 1,200 subscribers!', 'subscribers', '1200'],
    ["We've finally crossed 10k users on the app.", 'users', '10k'],
    ['I am up to 25 postcards in my collection.', 'postcards', '25'],
  ])('%s', (text, attribute, value) => {
    expect(counts(text)).toEqual([['Sam', attribute, value]]);
  });

  it.each([
    // What one has at a moment, a measure, a duration, a question, a hedge: no count.
    'I have 3 meetings tomorrow.',
    "I'm at 5 miles a day now.",
    'I reached 30 years this spring.',
    'I hit 10 reps on the bench today.',
    'Did you reach 500 followers?',
    'Maybe I will reach 500 followers soon.',
  ])('no count in: %s', (text) => {
    expect(counts(text)).toEqual([]);
  });

  it('is dated when the sentence says it was reached', () => {
    const change = said('Sam', 'I just reached 500 followers last week.', tagger).stateChanges.find(
      (c) => c.attribute === 'followers',
    );
    // T0 is Wednesday 15 January 2025: "last week" is dated at its middle, Thursday the 9th.
    expect(change?.eventTime?.slice(0, 10)).toBe('2025-01-09');
    expect(new Date(T0).toISOString().slice(0, 10)).toBe('2025-01-15');
  });
});
