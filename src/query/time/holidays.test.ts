import { describe, expect, it } from 'vitest';
import { easter } from './holidays.js';
import { findTimeRanges } from './index.js';

/** Wednesday 10 January 2024, noon UTC. */
const NOW = Date.UTC(2024, 0, 10, 12);

const day = (text: string): [string, string] | null => {
  const found = findTimeRanges({ text, now: NOW, tz: 'UTC', periods: [] });
  const r = found[0];
  return found.length === 1 && r ? [r.text, new Date(r.start).toISOString().slice(0, 10)] : null;
};

describe('holidays', () => {
  it.each([
    ['Last Christmas we went skiing.', 'Last Christmas', '2023-12-25'],
    ['We went skiing at Christmas.', 'Christmas', '2023-12-25'],
    ["I'm hosting on Thanksgiving.", 'Thanksgiving', '2024-11-28'],
    ['What did I do on Thanksgiving?', 'Thanksgiving', '2023-11-23'],
    ['Over Easter we visited Rome.', 'Easter', '2023-04-09'],
    ["On Mother's Day I called my mom.", "Mother's Day", '2023-05-14'],
    ["On Father's Day we grilled.", "Father's Day", '2023-06-18'],
    ['What did I do over Labor Day?', 'Labor Day', '2023-09-04'],
    ['On the Fourth of July we watched fireworks.', 'the Fourth of July', '2023-07-04'],
    ["What did I do on New Year's Eve?", "New Year's Eve", '2023-12-31'],
    ['This Christmas was quiet.', 'This Christmas', '2023-12-25'],
    ["Next Valentine's Day I'll cook.", "Next Valentine's Day", '2024-02-14'],
  ])('%s', (text, said, start) => {
    expect(day(text)).toEqual([said, start]);
  });

  it('"since" a holiday looks back whatever the verb, and runs from it to now', () => {
    const [r] = findTimeRanges({ text: 'Since Memorial Day I have run daily.', now: NOW, tz: 'UTC', periods: [] });
    expect(r && new Date(r.start).toISOString().slice(0, 10)).toBe('2023-05-29');
    expect(r?.end).toBeGreaterThanOrEqual(NOW);
  });

  it.each([
    'The Christmas magic is real.',
    'For Halloween costumes, I like capes.',
    'Happy Thanksgiving!',
    'Our Thanksgiving traditions are simple.',
    'During Thanksgiving, we usually watch a few movies.',
  ])('a holiday that names a kind of thing, or no day, is no date: %s', (text) => {
    expect(findTimeRanges({ text, now: NOW, tz: 'UTC', periods: [] })).toEqual([]);
  });

  it.each([
    [2023, 4, 9],
    [2024, 3, 31],
    [2025, 4, 20],
    [2019, 4, 21],
  ])('Easter %i is %i/%i', (year, month, dayOfMonth) => {
    expect(easter(year)).toEqual({ month, day: dayOfMonth });
  });
});
