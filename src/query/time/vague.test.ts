import { describe, expect, it } from 'vitest';
import { findTimeRanges } from './index.js';

const NOW = Date.parse('2025-11-01T12:00:00Z');
/** 04:00 PST on 10 November, after the fall-back change. */
const AFTER_DST = Date.parse('2025-11-10T12:00:00Z');
const LA = 'America/Los_Angeles';

function all(question: string, tz: string, now: number): Array<[string, string, string, string]> {
  return findTimeRanges({ text: question, now, tz, periods: [] }).map((r) => [
    r.text,
    r.kind,
    new Date(r.start).toISOString(),
    new Date(r.end).toISOString(),
  ]);
}

describe('vague anchors', () => {
  it.each<[string, string, number, string, string, string]>([
    [
      'What have I been reading recently?',
      'UTC',
      NOW,
      'recently',
      '2025-10-02T12:00:00.000Z',
      '2025-11-01T12:00:00.000Z',
    ],
    ['What have I been reading lately?', 'UTC', NOW, 'lately', '2025-10-02T12:00:00.000Z', '2025-11-01T12:00:00.000Z'],
    // 30 days back at the same local time: 04:00 PDT on 11 October = 11:00Z.
    ['recently', LA, AFTER_DST, 'recently', '2025-10-11T11:00:00.000Z', '2025-11-10T12:00:00.000Z'],
    ['recently', 'UTC', AFTER_DST, 'recently', '2025-10-11T12:00:00.000Z', '2025-11-10T12:00:00.000Z'],
    ['these days', 'UTC', NOW, 'these days', '2025-10-02T12:00:00.000Z', '2025-11-01T12:00:00.000Z'],
    ['a while ago', 'UTC', NOW, 'a while ago', '2024-11-01T12:00:00.000Z', '2025-08-01T12:00:00.000Z'],
    ['a while back', LA, AFTER_DST, 'a while back', '2024-11-10T12:00:00.000Z', '2025-08-10T11:00:00.000Z'],
    ['a few months ago', 'UTC', NOW, 'a few months ago', '2025-05-01T12:00:00.000Z', '2025-09-01T12:00:00.000Z'],
    ['several years ago', 'UTC', NOW, 'several years ago', '2019-11-01T12:00:00.000Z', '2023-11-01T12:00:00.000Z'],
    ['a few days ago', 'UTC', NOW, 'a few days ago', '2025-10-26T12:00:00.000Z', '2025-10-30T12:00:00.000Z'],
    [
      'a couple of weeks ago',
      'UTC',
      NOW,
      'a couple of weeks ago',
      '2025-10-11T12:00:00.000Z',
      '2025-10-25T12:00:00.000Z',
    ],
    ['a long time ago', 'UTC', NOW, 'a long time ago', '1990-01-01T00:00:00.000Z', '2024-11-01T12:00:00.000Z'],
    // "Not long ago" is recent, not over a year back (LoCoMo).
    [
      'I started my store not so long ago',
      'UTC',
      NOW,
      'not so long ago',
      '2025-08-01T12:00:00.000Z',
      '2025-11-01T12:00:00.000Z',
    ],
    ['not long ago', 'UTC', NOW, 'not long ago', '2025-08-01T12:00:00.000Z', '2025-11-01T12:00:00.000Z'],
  ])('%s (%s)', (question, tz, now, text, start, end) => {
    expect(all(question, tz, now)).toEqual([[text, 'vague', start, end]]);
  });

  it.each(['What did I say back then?', 'What was I doing at the time?', 'and then what happened?'])(
    '%s finds nothing',
    (q) => {
      expect(all(q, 'UTC', NOW)).toEqual([]);
    },
  );
});
