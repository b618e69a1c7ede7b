import { describe, expect, it } from 'vitest';
import { episode, turns } from '../query/test-kit.js';
import type { IntervalAnchor } from '../query/evidence.js';
import { questionInterval } from '../query/interval.js';
import { intervalLines, matchedSentence, spanParts } from './interval.js';

const day = (m: number, d: number, y = 2023) => Date.UTC(y, m - 1, d, 12);
const e1 = episode({ id: 'e1', title: 'one', createdAt: day(3, 1) });
const e2 = episode({ id: 'e2', title: 'two', createdAt: day(4, 12) });
const [moved, started] = turns('e1', [
  ['user', 'We moved to Denver.'],
  ['user', 'I started the new job.'],
]);
const [vase] = turns('e2', [['user', 'I sold my first vase yesterday!']]);
const cite = (id: string) => ` [${id}]`;

function anchors(question: string, picks: [typeof e1, NonNullable<typeof moved>][]): IntervalAnchor[] {
  const q = questionInterval(question);
  if (!q) throw new Error('no interval');
  return picks.map(([ep, turn], i) => ({ end: q.ends[i] ?? q.ends[0]!, episode: ep, turn }));
}

describe('intervalLines', () => {
  const q = 'How many weeks after I moved to Denver did I sell my first vase?';
  const question = questionInterval(q)!;

  it('dates each end by its turn (a day it names first), earlier end first, and counts the days between', () => {
    const between = 'How many days passed between selling my first vase and moving to Denver?';
    const lines = intervalLines({
      question: questionInterval(between)!,
      anchors: anchors(between, [
        [e2, vase!],
        [e1, moved!],
      ]),
      now: day(5, 1),
      tz: 'UTC',
      cite,
    });
    expect(lines).toEqual([
      'Time between what the question names (dated by the turn that best matches each, quoted): “moving to Denver” 1 March 2023 [e1] (“We moved to Denver.”), then “selling my first vase” 11 April 2023 [e2] (“I sold my first vase yesterday!”): 41 days (42 counting both days), 5 weeks and 6 days, 1 month apart.',
    ]);
  });

  it('says nothing when an end has no turn or both ends are the same turn', () => {
    expect(intervalLines({ question, anchors: anchors(q, [[e1, moved!]]), now: day(5, 1), tz: 'UTC', cite })).toEqual(
      [],
    );
    const same = anchors(q, [
      [e1, started!],
      [e1, started!],
    ]);
    expect(intervalLines({ question, anchors: same, now: day(5, 1), tz: 'UTC', cite })).toEqual([]);
  });

  it('counts back from now for one end, and says nothing for a day not before now', () => {
    const ago = 'How many days ago did I sell my first vase?';
    const one = questionInterval(ago)!;
    expect(
      intervalLines({ question: one, anchors: anchors(ago, [[e2, vase!]]), now: day(4, 25), tz: 'UTC', cite }),
    ).toEqual([
      'Time since what the question names (dated by the turn that best matches it, quoted): “I sell my first vase” 11 April 2023 [e2] (“I sold my first vase yesterday!”): 14 days ago (15 counting both days), 2 weeks ago.',
    ]);
    expect(
      intervalLines({ question: one, anchors: anchors(ago, [[e2, vase!]]), now: day(4, 11), tz: 'UTC', cite }),
    ).toEqual([]);
  });
});

describe('spanParts', () => {
  it.each([
    [3, day(1, 1), day(1, 4), ['3 days']],
    [7, day(1, 1), day(1, 8), ['7 days', '1 week']],
    [31, day(1, 15), day(2, 15), ['31 days', '4 weeks and 3 days', '1 month']],
    [30, day(1, 15), day(2, 14), ['30 days', '4 weeks and 2 days']],
    [395, day(1, 1), day(1, 31, 2024), ['395 days', '56 weeks and 3 days', '12 months', '1 year']],
    [1096, day(1, 1), day(1, 1, 2026), ['1096 days', '3 years']],
  ])('%i days from %i to %i', (days, from, to, expected) => {
    expect(spanParts(days, from, to, 'UTC')).toEqual(expected);
  });
});

describe('matchedSentence', () => {
  it('quotes the sentence with the most of the keys, 16 words from just before the first that matches', () => {
    const text =
      'We had a lovely week. Then on Sunday I went to the mass at St. Mary’s with my whole family and two friends from work who had never been there before. It rained.';
    expect(matchedSentence(text, ['mass', 'mary'])).toBe(
      '… to the mass at St. Mary’s with my whole family and two friends from work who …',
    );
    expect(
      matchedSentence('By the way, I just came from the Ash Wednesday service at the cathedral on February 1st.', [
        'ash',
        'wedne',
      ]),
    ).toBe('… the way, I just came from the Ash Wednesday service at the cathedral on February 1st.');
    expect(matchedSentence('Nothing matches here. At all.', ['mass'])).toBe('Nothing matches here.');
  });
});
