import { describe, expect, it } from 'vitest';
import { findTimeRanges, type TimeRange } from './index.js';

/** Saturday 1 November 2025, 12:00 UTC = 05:00 PDT in Los Angeles. */
const NOW = Date.parse('2025-11-01T12:00:00Z');
/** 03:00 UTC on Saturday 1 November = 20:00 on Friday 31 October in Los Angeles. */
const LATE_FRIDAY_LA = Date.parse('2025-11-01T03:00:00Z');
/** Monday 10 November 2025, 12:00 UTC = 04:00 PST, after the 2 November fall-back change. */
const AFTER_DST = Date.parse('2025-11-10T12:00:00Z');
const LA = 'America/Los_Angeles';

type Row = [question: string, tz: string, now: number, text: string, start: string, end: string];

function only(question: string, tz: string, now: number): [string, TimeRange['kind'], string, string] | null {
  const found = findTimeRanges({ text: question, now, tz, periods: [] });
  expect(found).toHaveLength(1);
  const r = found[0];
  return r ? [r.text, r.kind, new Date(r.start).toISOString(), new Date(r.end).toISOString()] : null;
}

describe('calendar units relative to now', () => {
  it.each<Row>([
    ['yesterday', 'UTC', NOW, 'yesterday', '2025-10-31T00:00:00.000Z', '2025-11-01T00:00:00.000Z'],
    ['yesterday', LA, NOW, 'yesterday', '2025-10-31T07:00:00.000Z', '2025-11-01T07:00:00.000Z'],
    // It is still Friday in Los Angeles, so yesterday is Thursday there but Friday in UTC.
    ['yesterday', LA, LATE_FRIDAY_LA, 'yesterday', '2025-10-30T07:00:00.000Z', '2025-10-31T07:00:00.000Z'],
    ['yesterday', 'UTC', LATE_FRIDAY_LA, 'yesterday', '2025-10-31T00:00:00.000Z', '2025-11-01T00:00:00.000Z'],
    [
      'the day before yesterday',
      'UTC',
      NOW,
      'the day before yesterday',
      '2025-10-30T00:00:00.000Z',
      '2025-10-31T00:00:00.000Z',
    ],
    // Midnight of 2 November is still PDT (the change is at 02:00).
    ['today', LA, NOW, 'today', '2025-11-01T07:00:00.000Z', '2025-11-02T07:00:00.000Z'],
    ['last night', 'UTC', NOW, 'last night', '2025-10-31T18:00:00.000Z', '2025-11-01T06:00:00.000Z'],
    ['last week', 'UTC', NOW, 'last week', '2025-10-20T00:00:00.000Z', '2025-10-27T00:00:00.000Z'],
    ['last week', LA, NOW, 'last week', '2025-10-20T07:00:00.000Z', '2025-10-27T07:00:00.000Z'],
    // This Los Angeles week ends after the fall-back change: 08:00Z, not 07:00Z.
    ['this week', LA, NOW, 'this week', '2025-10-27T07:00:00.000Z', '2025-11-03T08:00:00.000Z'],
    [
      'the week before last',
      'UTC',
      NOW,
      'the week before last',
      '2025-10-13T00:00:00.000Z',
      '2025-10-20T00:00:00.000Z',
    ],
    ['last month', 'UTC', NOW, 'last month', '2025-10-01T00:00:00.000Z', '2025-11-01T00:00:00.000Z'],
    ['last month', LA, NOW, 'last month', '2025-10-01T07:00:00.000Z', '2025-11-01T07:00:00.000Z'],
    // Still October in Los Angeles: last month is September there.
    ['last month', LA, LATE_FRIDAY_LA, 'last month', '2025-09-01T07:00:00.000Z', '2025-10-01T07:00:00.000Z'],
    ['last year', 'UTC', NOW, 'last year', '2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'],
    ['last year', LA, NOW, 'last year', '2024-01-01T08:00:00.000Z', '2025-01-01T08:00:00.000Z'],
    ['this year', 'UTC', NOW, 'this year', '2025-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['next month', 'UTC', NOW, 'next month', '2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['last weekend', 'UTC', NOW, 'last weekend', '2025-10-25T00:00:00.000Z', '2025-10-27T00:00:00.000Z'],
    ['this weekend', 'UTC', NOW, 'this weekend', '2025-11-01T00:00:00.000Z', '2025-11-03T00:00:00.000Z'],
    ['earlier this year', 'UTC', NOW, 'earlier this year', '2025-01-01T00:00:00.000Z', '2025-11-01T12:00:00.000Z'],
    ['earlier this month', LA, NOW, 'earlier this month', '2025-11-01T07:00:00.000Z', '2025-11-01T12:00:00.000Z'],
  ])('%s (%s, now %d)', (question, tz, now, text, start, end) => {
    expect(only(question, tz, now)).toEqual([text, 'relative', start, end]);
  });
});

describe('"N units ago" is the calendar unit containing now − N units', () => {
  it.each<Row>([
    ['2 days ago', 'UTC', NOW, '2 days ago', '2025-10-30T00:00:00.000Z', '2025-10-31T00:00:00.000Z'],
    // now − 21 days is Saturday 11 October; its week runs Monday 6 – Sunday 12 October.
    ['3 weeks ago', 'UTC', NOW, '3 weeks ago', '2025-10-06T00:00:00.000Z', '2025-10-13T00:00:00.000Z'],
    ['3 weeks ago', LA, NOW, '3 weeks ago', '2025-10-06T07:00:00.000Z', '2025-10-13T07:00:00.000Z'],
    ['a week ago', 'UTC', NOW, 'a week ago', '2025-10-20T00:00:00.000Z', '2025-10-27T00:00:00.000Z'],
    ['two months ago', 'UTC', NOW, 'two months ago', '2025-09-01T00:00:00.000Z', '2025-10-01T00:00:00.000Z'],
    ['1 year ago', LA, NOW, '1 year ago', '2024-01-01T08:00:00.000Z', '2025-01-01T08:00:00.000Z'],
    // Half a year is six months, not a year; a year and a half, eighteen.
    ['half a year ago', 'UTC', NOW, 'half a year ago', '2025-05-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z'],
    [
      'a year and a half ago',
      'UTC',
      NOW,
      'a year and a half ago',
      '2024-05-01T00:00:00.000Z',
      '2024-06-01T00:00:00.000Z',
    ],
  ])('%s (%s)', (question, tz, now, text, start, end) => {
    expect(only(question, tz, now)).toEqual([text, 'relative', start, end]);
  });
});

describe('rolling windows end at now', () => {
  it.each<Row>([
    ['in the past 2 months', 'UTC', NOW, 'the past 2 months', '2025-09-01T12:00:00.000Z', '2025-11-01T12:00:00.000Z'],
    ['last 10 days', 'UTC', NOW, 'last 10 days', '2025-10-22T12:00:00.000Z', '2025-11-01T12:00:00.000Z'],
    ['the past week', 'UTC', NOW, 'the past week', '2025-10-25T12:00:00.000Z', '2025-11-01T12:00:00.000Z'],
    // "the last week" is rolling; "last week" (above) is the calendar week.
    ['over the last week', 'UTC', NOW, 'the last week', '2025-10-25T12:00:00.000Z', '2025-11-01T12:00:00.000Z'],
    ['the past few months', 'UTC', NOW, 'the past few months', '2025-08-01T12:00:00.000Z', '2025-11-01T12:00:00.000Z'],
    // Same local wall-clock time two weeks back: 04:00 PST now, 04:00 PDT then = 11:00Z.
    ['in the past 2 weeks', LA, AFTER_DST, 'the past 2 weeks', '2025-10-27T11:00:00.000Z', '2025-11-10T12:00:00.000Z'],
    [
      'in the past 2 weeks',
      'UTC',
      AFTER_DST,
      'the past 2 weeks',
      '2025-10-27T12:00:00.000Z',
      '2025-11-10T12:00:00.000Z',
    ],
  ])('%s (%s)', (question, tz, now, text, start, end) => {
    expect(only(question, tz, now)).toEqual([text, 'relative', start, end]);
  });
});

describe('named months and weekdays', () => {
  it.each<[string, string, number, string, TimeRange['kind'], string, string]>([
    ['last March', 'UTC', NOW, 'last March', 'month', '2025-03-01T00:00:00.000Z', '2025-04-01T00:00:00.000Z'],
    // In mid-March, "last March" is the one a year earlier.
    [
      'last March',
      'UTC',
      Date.parse('2025-03-15T12:00:00Z'),
      'last March',
      'month',
      '2024-03-01T00:00:00.000Z',
      '2024-04-01T00:00:00.000Z',
    ],
    ['next March', 'UTC', NOW, 'next March', 'month', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
    ['last may', LA, NOW, 'last may', 'month', '2025-05-01T07:00:00.000Z', '2025-06-01T07:00:00.000Z'],
    // Today is Saturday 1 November.
    ['last Monday', 'UTC', NOW, 'last Monday', 'relative', '2025-10-27T00:00:00.000Z', '2025-10-28T00:00:00.000Z'],
    ['on Friday', 'UTC', NOW, 'on Friday', 'relative', '2025-10-31T00:00:00.000Z', '2025-11-01T00:00:00.000Z'],
    ['on Saturday', 'UTC', NOW, 'on Saturday', 'relative', '2025-11-01T00:00:00.000Z', '2025-11-02T00:00:00.000Z'],
    ['last Saturday', 'UTC', NOW, 'last Saturday', 'relative', '2025-10-25T00:00:00.000Z', '2025-10-26T00:00:00.000Z'],
    ['next Monday', 'UTC', NOW, 'next Monday', 'relative', '2025-11-03T00:00:00.000Z', '2025-11-04T00:00:00.000Z'],
    // Still Friday in Los Angeles: "Saturday" is last week's.
    ['Saturday', LA, LATE_FRIDAY_LA, 'Saturday', 'relative', '2025-10-25T07:00:00.000Z', '2025-10-26T07:00:00.000Z'],
  ])('%s (%s)', (question, tz, now, text, kind, start, end) => {
    expect(only(question, tz, now)).toEqual([text, kind, start, end]);
  });

  it('"this may" before a verb is the modal, not the month', () => {
    expect(findTimeRanges({ text: 'I am wondering if this may be enough.', now: NOW, tz: 'UTC', periods: [] })).toEqual(
      [],
    );
  });

  it('ignores habitual plurals', () => {
    expect(findTimeRanges({ text: 'What do I do on Mondays?', now: NOW, tz: 'UTC', periods: [] })).toEqual([]);
  });

  it.each([
    "How many days passed between the Sunday mass at St. Mary's and the Ash Wednesday service?",
    'What did we eat at a Friday dinner with the team?',
    'Where did I shop on Black Friday?',
    'I go running every Monday.',
  ])('a weekday that names a kind of thing or a feast is no date: %s', (text) => {
    expect(findTimeRanges({ text, now: NOW, tz: 'UTC', periods: [] })).toEqual([]);
  });

  it.each([
    ['I finally took my kids to a pottery workshop last Fri.', 'last Fri', '2025-10-31T00:00:00.000Z'],
    ['I joined a new activist group last Tues', 'last Tues', '2025-10-28T00:00:00.000Z'],
    ['We met on Wed. for lunch', 'on Wed', '2025-10-29T00:00:00.000Z'],
    ['The call was last Thu', 'last Thu', '2025-10-30T00:00:00.000Z'],
    ['The call was last Thurs.', 'last Thurs', '2025-10-30T00:00:00.000Z'],
  ])('a short weekday after last / on: %s', (text, said, start) => {
    const found = findTimeRanges({ text, now: NOW, tz: 'UTC', periods: [] });
    expect(found.map((r) => [r.text.replace(/\.$/, ''), new Date(r.start).toISOString()])).toEqual([[said, start]]);
  });

  it.each(['We sat down in the sun.', 'They will wed in June 2030.'])('no short weekday alone: %s', (text) => {
    expect(findTimeRanges({ text, now: NOW, tz: 'UTC', periods: [] }).filter((r) => r.kind === 'relative')).toEqual([]);
  });

  it('a weekday after "last" or "on" is still a date', () => {
    expect(only('What did I do on the last Sunday?', 'UTC', NOW)?.[0]).toBe('last Sunday');
    expect(only('What did I do on Sunday?', 'UTC', NOW)?.[0]).toBe('on Sunday');
  });

  // Today is Saturday 1 November 2025.
  const dayOf = (text: string): string | null => {
    const found = findTimeRanges({ text, now: NOW, tz: 'UTC', periods: [] }).filter((r) => r.kind === 'relative');
    return found.length === 1 && found[0] ? new Date(found[0].start).toISOString().slice(0, 10) : null;
  };

  it.each([
    // What is to come: the first such weekday after today.
    ["I'm thinking of rewarding myself with a smoothie on Friday.", '2025-11-07'],
    ["I'll schedule the chat for Wednesday.", '2025-11-05'],
    ["I'm flying out to Rome on Monday!", '2025-11-03'],
    ['On Tuesday we are hosting a dinner.', '2025-11-04'],
    ['What am I doing on Friday?', '2025-11-07'],
    ["Can't wait for the concert on Sunday.", '2025-11-02'],
    // What has been: the latest up to today, as before.
    ['I just finished my last one on Friday and I’m looking for something new.', '2025-10-31'],
    ['On Friday, I got great news!', '2025-10-31'],
    ['I was going to go on Thursday but it rained.', '2025-10-30'],
    ["We went hiking on Sunday, and I'll go again soon.", '2025-10-26'],
    // A count of units ahead, of what is to come; "back" as "ago".
    ["I'm moving to Paris in two days.", '2025-11-03'],
    ['The wedding is in 3 days.', '2025-11-04'],
    ['I got the job two days back.', '2025-10-30'],
  ])('a bare weekday is ahead only when its clause speaks of what is to come: %s', (text, day) => {
    expect(dayOf(text)).toBe(day);
  });

  it.each([
    'Today is Sunday and I plan to go for a walk.',
    "It's Friday!",
    "I've been taking acting classes on Tuesday nights.",
    'I go to yoga on Saturday mornings.',
    "That way, I'll still have my Tuesday Zumba class.",
    'By the following Monday, I was back to my routine.',
    'I think I\'ll start a "Travel Tuesday" series.',
    'I finished the whole puzzle in two days.',
  ])('a weekday that is today, a habit, a kind of thing or a name is no date: %s', (text) => {
    const found = findTimeRanges({ text, now: NOW, tz: 'UTC', periods: [] });
    expect(found.filter((r) => /(mon|tues|wednes|thurs|fri|satur|sun)day|\bin\b/i.test(r.text))).toEqual([]);
  });
});
