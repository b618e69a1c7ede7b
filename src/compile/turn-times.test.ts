import { describe, expect, it } from 'vitest';
import { annotateRelativeTimes, dayMentioned } from './turn-times.js';

// Monday 8 May 2023, 13:56 UTC (a LoCoMo session time).
const AT = Date.UTC(2023, 4, 8, 13, 56);
// Friday 9 June 2023.
const FRIDAY = Date.UTC(2023, 5, 9, 10);

describe('annotateRelativeTimes', () => {
  it.each([
    [AT, 'I went to a support group yesterday.', 'I went to a support group yesterday [7 May 2023].'],
    [AT, 'We moved there last year and love it.', 'We moved there last year [2022] and love it.'],
    [AT, 'Last month was rough.', 'Last month [April 2023] was rough.'],
    [AT, 'Last night was amazing!', 'Last night [7 May 2023] was amazing!'],
    [FRIDAY, 'Guess what I did this week?', 'Guess what I did this week [the week of 9 June 2023]?'],
    [AT, 'The opening night is tomorrow.', 'The opening night is tomorrow [9 May 2023].'],
    [
      AT,
      'That roadtrip this past weekend was wild.',
      'That roadtrip this past weekend [the weekend before 8 May 2023] was wild.',
    ],
    [AT, 'We went camping two weekends ago.', 'We went camping two weekends ago [the weekend of 29 April 2023].'],
    [AT, 'We go camping next weekend.', 'We go camping next weekend [the weekend of 20 May 2023].'],
    [
      AT,
      'Last Fri I took my kids to a pottery workshop.',
      'Last Fri [5 May 2023, the Friday before 8 May 2023] I took my kids to a pottery workshop.',
    ],
    [
      FRIDAY,
      'I gave a talk at a school last week!',
      'I gave a talk at a school last week [the week before 9 June 2023]!',
    ],
    [FRIDAY, 'Next month I am going camping.', 'Next month [July 2023] I am going camping.'],
    [
      FRIDAY,
      'I ran a charity race last Sunday.',
      'I ran a charity race last Sunday [4 June 2023, the Sunday before 9 June 2023].',
    ],
    [FRIDAY, 'Two days ago my dog was sick.', 'Two days ago [7 June 2023] my dog was sick.'],
    [
      FRIDAY,
      'I got a puppy two weeks ago!',
      'I got a puppy two weeks ago [the week of 22 May 2023, two weeks before 9 June 2023]!',
    ],
    [FRIDAY, 'We went hiking last weekend.', 'We went hiking last weekend [the weekend before 9 June 2023].'],
    // One week ago is the week before, said once (it was "the week before 9 June 2023, a week before 9 June 2023").
    [FRIDAY, 'I got a puppy a week ago!', 'I got a puppy a week ago [the week before 9 June 2023]!'],
    [
      FRIDAY,
      'He came to live in the village half a year ago.',
      'He came to live in the village half a year ago [December 2022, half a year before 9 June 2023].',
    ],
    // A plan's weekday is the coming one, without "the … before".
    [FRIDAY, "I'm going to the show on Saturday.", "I'm going to the show on Saturday [10 June 2023]."],
    // Months and seasons named from the day it was said; "this summer" before it begins, and a bare season, are not.
    [AT, 'We went to Spain last summer.', 'We went to Spain last summer [the summer of 2022].'],
    [AT, 'Last fall I moved.', 'Last fall [the fall of 2022] I moved.'],
    [AT, 'Next winter we ski.', 'Next winter [the winter of 2023–24] we ski.'],
    [AT, 'Since last March I paint.', 'Since last March [March 2023] I paint.'],
    [AT, 'Wanna go camping this summer?', 'Wanna go camping this summer?'],
    [AT, 'In the summer I swim.', 'In the summer I swim.'],
    [FRIDAY, "I'm moving to Paris in two weeks.", "I'm moving to Paris in two weeks [the week of 19 June 2023]."],
    [
      FRIDAY,
      'I started this job two months back.',
      'I started this job two months back [April 2023, two months before 9 June 2023].',
    ],
    [FRIDAY, 'I finished it in two days.', 'I finished it in two days.'],
    // A day said without its year gets the year: the latest up to then, or the next for a plan.
    [AT, 'I got my boots on January 15th.', 'I got my boots on January 15th [15 January 2023].'],
    [AT, "I'm planning a trip on March 15th.", "I'm planning a trip on March 15th [15 March 2024]."],
    [AT, 'We met on May 3rd, 2021.', 'We met on May 3rd, 2021.'],
    [AT, 'I went to Tokyo in March.', 'I went to Tokyo in March [March 2023].'],
    [AT, 'We went skiing at Christmas.', 'We went skiing at Christmas [25 December 2022].'],
    // "over the weekend": the one gone, the coming one for a plan, none for a habit.
    [
      FRIDAY,
      'Over the weekend I painted the fence.',
      'Over the weekend [the weekend before 9 June 2023] I painted the fence.',
    ],
    [FRIDAY, "I'll paint over the weekend.", "I'll paint over the weekend [the weekend after 9 June 2023]."],
    [FRIDAY, 'I hike on the weekend.', 'I hike on the weekend.'],
    [AT, 'Today is a good day.', 'Today is a good day.'],
    [AT, 'It happened on 3 March 2021.', 'It happened on 3 March 2021.'],
    [AT, 'Recently I have been painting.', 'Recently I have been painting.'],
    [AT, 'Nothing about time here.', 'Nothing about time here.'],
  ])('%#: %s', (at, text, expected) => {
    expect(annotateRelativeTimes({ text, at, tz: 'UTC' })).toBe(expected);
  });

  it('resolves in the speaker’s zone', () => {
    // 00:30 on 9 May in Tokyo is still 8 May in UTC.
    const at = Date.UTC(2023, 4, 8, 15, 30);
    expect(annotateRelativeTimes({ text: 'yesterday', at, tz: 'Asia/Tokyo' })).toBe('yesterday [8 May 2023]');
    expect(annotateRelativeTimes({ text: 'yesterday', at, tz: 'UTC' })).toBe('yesterday [7 May 2023]');
  });
});

describe('dayMentioned', () => {
  const iso = (text: string) => {
    const t = dayMentioned({ text, at: AT, tz: 'UTC' });
    return t === null ? null : new Date(t).toISOString().slice(0, 10);
  };
  it.each([
    ['I went to a support group yesterday.', '2023-05-07'],
    ['I attended the Sunday mass at St. Mary’s Church on January 2nd, on Sunday.', '2023-01-02'],
    ['I got a puppy two weeks ago!', '2023-04-24'],
    ['A friend made it for my 18th birthday ten years ago.', '2013-05-08'],
    // Nothing dated, the day it was said, or two different days: the turn's own time dates it.
    ['I love painting.', null],
    // A plan: the day is still to come, so it dates nothing that happened.
    ["I'm flying to Rome on Friday.", null],
    ['I went running today.', null],
    ['I ran on May 1st and swam on May 3rd.', null],
    ['We met a few weeks ago.', null],
  ])('%s → %s', (text, expected) => {
    expect(iso(text)).toBe(expected);
  });
});
