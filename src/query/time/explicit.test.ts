import { describe, expect, it } from 'vitest';
import { findTimeRanges, type TimeRange } from './index.js';

const NOW = Date.parse('2025-11-01T12:00:00Z');
const LA = 'America/Los_Angeles';

type Expected = [text: string, kind: TimeRange['kind'], start: string, end: string];

function found(text: string, tz: string, now = NOW): Expected[] {
  return findTimeRanges({ text, now, tz, periods: [] }).map((r) => [
    r.text,
    r.kind,
    new Date(r.start).toISOString(),
    new Date(r.end).toISOString(),
  ]);
}

describe('explicit dates (chrono)', () => {
  it.each<[string, string, Expected[]]>([
    [
      'What did I do on March 3, 2024?',
      'UTC',
      [['March 3, 2024', 'explicit', '2024-03-03T00:00:00.000Z', '2024-03-04T00:00:00.000Z']],
    ],
    [
      'What did I do on March 3, 2024?',
      LA,
      [['March 3, 2024', 'explicit', '2024-03-03T08:00:00.000Z', '2024-03-04T08:00:00.000Z']],
    ],
    [
      'notes from 2024-03-15',
      'UTC',
      [['2024-03-15', 'explicit', '2024-03-15T00:00:00.000Z', '2024-03-16T00:00:00.000Z']],
    ],
    ['notes from 2024-03-15', LA, [['2024-03-15', 'explicit', '2024-03-15T07:00:00.000Z', '2024-03-16T07:00:00.000Z']]],
    ['on 5/6/2024', 'UTC', [['5/6/2024', 'explicit', '2024-05-06T00:00:00.000Z', '2024-05-07T00:00:00.000Z']]],
    [
      'the 3rd of March 2024',
      'UTC',
      [['3rd of March 2024', 'explicit', '2024-03-03T00:00:00.000Z', '2024-03-04T00:00:00.000Z']],
    ],
    ['in March 2024', 'UTC', [['March 2024', 'month', '2024-03-01T00:00:00.000Z', '2024-04-01T00:00:00.000Z']]],
    // March 2024 begins in PST (UTC-8) and ends in PDT (UTC-7).
    ['in March 2024', LA, [['March 2024', 'month', '2024-03-01T08:00:00.000Z', '2024-04-01T07:00:00.000Z']]],
    [
      'what happened in dec 2023',
      'UTC',
      [['dec 2023', 'month', '2023-12-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z']],
    ],
    ['2024-03', 'UTC', [['2024-03', 'month', '2024-03-01T00:00:00.000Z', '2024-04-01T00:00:00.000Z']]],
    // A month alone is the latest one that has begun: March 2025, December 2024, November 2025 (current).
    ['What about March?', 'UTC', [['March', 'month', '2025-03-01T00:00:00.000Z', '2025-04-01T00:00:00.000Z']]],
    ['in December', 'UTC', [['December', 'month', '2024-12-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z']]],
    ['in November', 'UTC', [['November', 'month', '2025-11-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z']]],
    // At 05:00 on 1 November in Los Angeles November has begun; asked at 20:00 on 31 October it has not.
    ['in November', LA, [['November', 'month', '2025-11-01T07:00:00.000Z', '2025-12-01T08:00:00.000Z']]],
    ['on June 5', 'UTC', [['June 5', 'explicit', '2025-06-05T00:00:00.000Z', '2025-06-06T00:00:00.000Z']]],
    ['on December 24', 'UTC', [['December 24', 'explicit', '2024-12-24T00:00:00.000Z', '2024-12-25T00:00:00.000Z']]],
  ])('%s (%s)', (text, tz, expected) => {
    expect(found(text, tz)).toEqual(expected);
  });

  it('reads a yearless month against the local date, not the UTC one', () => {
    const lateOctoberInLa = Date.parse('2025-11-01T03:00:00Z');
    expect(found('in November', LA, lateOctoberInLa)).toEqual([
      ['November', 'month', '2024-11-01T07:00:00.000Z', '2024-12-01T08:00:00.000Z'],
    ]);
    expect(found('in November', 'UTC', lateOctoberInLa)).toEqual([
      ['November', 'month', '2025-11-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z'],
    ]);
  });
});

describe('years', () => {
  it.each<[string, string, Expected[]]>([
    ['in 2023', 'UTC', [['2023', 'year', '2023-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z']]],
    ['in 2023', LA, [['2023', 'year', '2023-01-01T08:00:00.000Z', '2024-01-01T08:00:00.000Z']]],
    [
      'What did I read in Berlin 2019?',
      'UTC',
      [['2019', 'year', '2019-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z']],
    ],
    ['2022-2024', 'UTC', [['2022-2024', 'year', '2022-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z']]],
    ['the 2023-24 school year', 'UTC', [['2023-24', 'year', '2023-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z']]],
    ['What did I do in 2023.', 'UTC', [['2023', 'year', '2023-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z']]],
    ['2023 was a good year', 'UTC', [['2023', 'year', '2023-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z']]],
    ['in 2023 alone', 'UTC', [['2023', 'year', '2023-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z']]],
    ['I have 2000 photos', 'UTC', []],
    ['I have 3 cats and 2000 photos', 'UTC', []],
    ['about 1950 calories', 'UTC', []],
    ['call 2024-555-0100', 'UTC', []],
  ])('%s (%s)', (text, tz, expected) => {
    expect(found(text, tz)).toEqual(expected);
  });
});

describe('ranges', () => {
  it.each<[string, string, Expected[]]>([
    [
      'between May and July 2024',
      'UTC',
      [['between May and July 2024', 'explicit', '2024-05-01T00:00:00.000Z', '2024-08-01T00:00:00.000Z']],
    ],
    [
      'between May and July 2024',
      LA,
      [['between May and July 2024', 'explicit', '2024-05-01T07:00:00.000Z', '2024-08-01T07:00:00.000Z']],
    ],
    [
      'from Jan 2024 to March 2024',
      'UTC',
      [['from Jan 2024 to March 2024', 'explicit', '2024-01-01T00:00:00.000Z', '2024-04-01T00:00:00.000Z']],
    ],
    [
      'from Jan 2024 to March 2024',
      LA,
      [['from Jan 2024 to March 2024', 'explicit', '2024-01-01T08:00:00.000Z', '2024-04-01T07:00:00.000Z']],
    ],
    // The yearless start takes the year before its end when it falls later in the year.
    [
      'from November to February 2024',
      'UTC',
      [['from November to February 2024', 'explicit', '2023-11-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z']],
    ],
    [
      'Dec 2023 - Feb 2024',
      'UTC',
      [['Dec 2023 - Feb 2024', 'explicit', '2023-12-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z']],
    ],
    [
      'March 3-5, 2024',
      'UTC',
      [['March 3-5, 2024', 'explicit', '2024-03-03T00:00:00.000Z', '2024-03-06T00:00:00.000Z']],
    ],
    [
      'between 2022 and 2024',
      'UTC',
      [['between 2022 and 2024', 'explicit', '2022-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z']],
    ],
    [
      'between 2022 and 2024 I worked remotely',
      'UTC',
      [['between 2022 and 2024', 'explicit', '2022-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z']],
    ],
    [
      'between March 3, 2024 and April 2024',
      'UTC',
      [['between March 3, 2024 and April 2024', 'explicit', '2024-03-03T00:00:00.000Z', '2024-05-01T00:00:00.000Z']],
    ],
    [
      'from March 2024 to now',
      'UTC',
      [['from March 2024 to now', 'explicit', '2024-03-01T00:00:00.000Z', '2025-11-01T12:00:00.000Z']],
    ],
    // "and" without "between" lists two references; the year written once applies to both.
    [
      'in March and May 2024',
      'UTC',
      [
        ['March', 'month', '2024-03-01T00:00:00.000Z', '2024-04-01T00:00:00.000Z'],
        ['May 2024', 'month', '2024-05-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z'],
      ],
    ],
  ])('%s (%s)', (text, tz, expected) => {
    expect(found(text, tz)).toEqual(expected);
  });
});

describe('before / after / since / until', () => {
  it.each<[string, string, Expected[]]>([
    // The floor is 1990-01-01T00:00Z (PLAUSIBLE_MIN_MS) when no period starts earlier.
    ['before 2024', 'UTC', [['before 2024', 'year', '1990-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z']]],
    ['before 2024', LA, [['before 2024', 'year', '1990-01-01T00:00:00.000Z', '2024-01-01T08:00:00.000Z']]],
    ['after 2023', 'UTC', [['after 2023', 'year', '2024-01-01T00:00:00.000Z', '2025-11-01T12:00:00.000Z']]],
    ['until 2020', 'UTC', [['until 2020', 'year', '1990-01-01T00:00:00.000Z', '2021-01-01T00:00:00.000Z']]],
    ['since June', 'UTC', [['since June', 'month', '2025-06-01T00:00:00.000Z', '2025-11-01T12:00:00.000Z']]],
    ['since June', LA, [['since June', 'month', '2025-06-01T07:00:00.000Z', '2025-11-01T12:00:00.000Z']]],
    [
      'since March 2024',
      'UTC',
      [['since March 2024', 'month', '2024-03-01T00:00:00.000Z', '2025-11-01T12:00:00.000Z']],
    ],
  ])('%s (%s)', (text, tz, expected) => {
    expect(found(text, tz)).toEqual(expected);
  });
});
