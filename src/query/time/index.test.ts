import { describe, expect, it } from 'vitest';
import { chronoCandidates } from './chrono.js';
import { describeRange, findTimeRanges, type TimeRange } from './index.js';

const NOW = Date.parse('2025-11-01T12:00:00Z');
const LA = 'America/Los_Angeles';

function texts(question: string, tz = 'UTC'): Array<[string, TimeRange['kind']]> {
  return findTimeRanges({ text: question, now: NOW, tz, periods: [] }).map((r) => [r.text, r.kind]);
}

describe('findTimeRanges', () => {
  it.each<[string, Array<[string, TimeRange['kind']]>]>([
    // In order of appearance.
    [
      'What did I do last spring, in March 2024 and yesterday?',
      [
        ['last spring', 'season'],
        ['March 2024', 'month'],
        ['yesterday', 'relative'],
      ],
    ],
    // The longer match wins: not the year 2024 inside these.
    ['in summer 2024', [['summer 2024', 'season']]],
    ['early 2024', [['early 2024', 'season']]],
    ['on March 3, 2024', [['March 3, 2024', 'explicit']]],
    ['the summer before last', [['the summer before last', 'season']]],
    // "3 weeks ago" as one phrase, not "weeks" plus something else.
    [
      '3 weeks ago and last summer',
      [
        ['3 weeks ago', 'relative'],
        ['last summer', 'season'],
      ],
    ],
    ['since last spring', [['since last spring', 'season']]],
  ])('%s', (question, expected) => {
    expect(texts(question)).toEqual(expected);
  });

  it.each([
    'What do I think about knowledge graphs?',
    'How has X evolved?',
    'How has my view of Rust changed?',
    // chrono traps: modal "may", verb "march", ordinal or unit "second", fractions, times of day, numbers.
    'I may go to the gym',
    'May I ask about Python?',
    'I may 5 times have said it',
    'we march on',
    'the second time I tried',
    'wait a second',
    '3/4 of my time goes to email',
    'at 5 I had lunch',
    'I have 2000 photos',
    'I sat in the sun',
    'What am I working on now?',
    'the last time I saw her',
    // Lowercase month names need a temporal word right before them.
    'plans for may',
    'what about march',
  ])('finds nothing in %j', (question) => {
    expect(findTimeRanges({ text: question, now: NOW, tz: 'UTC', periods: [] })).toEqual([]);
  });

  it('keeps month names that follow a temporal word, even lowercase', () => {
    expect(texts('in may')).toEqual([['may', 'month']]);
    expect(texts('we met in march')).toEqual([['march', 'month']]);
  });
});

describe('chrono is limited to calendar parsers', () => {
  it('reads calendar dates', () => {
    expect(chronoCandidates({ text: 'on March 3, 2024', now: NOW, tz: 'UTC', periods: [], floor: 0 })).toHaveLength(1);
  });

  it.each(['yesterday', '3 weeks ago', 'last month', 'in 10 minutes', 'tonight at 5pm', 'on Monday'])(
    'leaves %j to the relative rules',
    (text) => {
      expect(chronoCandidates({ text, now: NOW, tz: 'UTC', periods: [], floor: 0 })).toEqual([]);
    },
  );
});

describe('describeRange', () => {
  const first = (question: string, tz: string): TimeRange => {
    const r = findTimeRanges({ text: question, now: NOW, tz, periods: [] })[0];
    if (!r) throw new Error(`no range in ${question}`);
    return r;
  };

  it.each<[string, string, string]>([
    ['last spring', 'UTC', 'spring 2025 (1 Mar – 31 May 2025)'],
    ['last spring', LA, 'spring 2025 (1 Mar – 31 May 2025)'],
    ['winter 2023', 'UTC', 'winter 2023–24 (1 Dec 2023 – 29 Feb 2024)'],
    ['in March 2024', LA, 'March 2024 (1 – 31 Mar 2024)'],
    ['last month', 'UTC', 'October 2025 (1 – 31 Oct 2025)'],
    ['in 2023', 'UTC', '2023 (1 Jan – 31 Dec 2023)'],
    ['on March 3, 2024', LA, 'March 3, 2024 (3 Mar 2024)'],
    ['last week', 'UTC', 'last week (20 – 26 Oct 2025)'],
    ['early 2024', 'UTC', 'early 2024 (1 Jan – 30 Apr 2024)'],
    ['the past 2 months', 'UTC', 'the past 2 months (1 Sep – 1 Nov 2025)'],
  ])('%s (%s) → %s', (question, tz, label) => {
    expect(describeRange(first(question, tz), tz)).toBe(label);
  });

  it('shows the last day of the exclusive end in the given zone', () => {
    // Ends at 00:00 on 20 May in Los Angeles (07:00Z): the last day is the 19th there, the 20th in UTC.
    const range: TimeRange = {
      start: Date.parse('2024-01-08T08:00:00Z'),
      end: Date.parse('2024-05-20T07:00:00Z'),
      text: 'my gap semester',
      kind: 'period',
      periodId: 'p',
    };
    expect(describeRange(range, LA)).toBe('my gap semester (8 Jan – 19 May 2024)');
    expect(describeRange(range, 'UTC')).toBe('my gap semester (8 Jan – 20 May 2024)');
  });

  it('labels an empty range', () => {
    expect(describeRange({ start: NOW, end: NOW, text: 'after the Berlin job', kind: 'period' }, 'UTC')).toBe(
      'after the Berlin job (empty)',
    );
  });
});
