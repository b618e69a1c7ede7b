import { describe, expect, it } from 'vitest';
import { timeNote } from './time-note.js';

const DAY = 86_400_000;
const first = Date.UTC(2024, 8, 3, 10);
const last = Date.UTC(2025, 9, 22, 10);
const span = { first, last };
const range = (start: number, end: number, text: string) => ({ start, end, text });

describe('timeNote: when time puts a question outside the memory', () => {
  it('says when now is before the first conversation (a clock set in the past)', () => {
    expect(timeNote({ now: Date.UTC(2020, 0, 1), tz: 'UTC', timeRanges: [], span })).toBe(
      'Now (1 January 2020) is before the first conversation in the memory (3 September 2024); check the clock or --now.',
    );
  });

  it('says when every time asked about lies before the memory begins or after it ends', () => {
    const now = last + 30 * DAY;
    const early = range(Date.UTC(2010, 0, 1), Date.UTC(2011, 0, 1), 'in 2010');
    expect(timeNote({ now, tz: 'UTC', timeRanges: [early], span })).toBe(
      'The memory begins on 3 September 2024, after the time asked about ("in 2010").',
    );
    const late = range(last + DAY, last + 10 * DAY, 'last week');
    expect(timeNote({ now, tz: 'UTC', timeRanges: [late], span })).toBe(
      'The memory\'s latest conversation is from 22 October 2025, before the time asked about ("last week").',
    );
  });

  it('says when now falls inside the memory, before its latest conversation (what was told later is shown too)', () => {
    const now = Date.UTC(2025, 1, 1);
    expect(timeNote({ now, tz: 'UTC', timeRanges: [], span })).toBe(
      'Now (1 February 2025) is before the latest conversation in the memory (22 October 2025); what was said after now is shown too, dated ahead of it, so a current state may be one told later.',
    );
    // A time asked about inside the memory does not change that; one outside it is the note that explains more.
    const inside = range(first + DAY, first + 2 * DAY, 'that week');
    expect(timeNote({ now, tz: 'UTC', timeRanges: [inside], span })).toMatch(
      /^Now \(1 February 2025\) is before the latest/,
    );
    const early = range(Date.UTC(2010, 0, 1), Date.UTC(2011, 0, 1), 'in 2010');
    expect(timeNote({ now, tz: 'UTC', timeRanges: [early], span })).toMatch(/^The memory begins on/);
    // At the latest conversation itself nothing was said after now.
    expect(timeNote({ now: last, tz: 'UTC', timeRanges: [], span })).toBeNull();
  });

  it('says nothing when time does not explain it; an empty memory is said so', () => {
    const now = last + DAY;
    expect(timeNote({ now, tz: 'UTC', timeRanges: [], span })).toBeNull();
    const inside = range(first + DAY, first + 2 * DAY, 'that week');
    expect(timeNote({ now, tz: 'UTC', timeRanges: [inside], span })).toBeNull();
    // One range inside the memory is enough to look there.
    const early = range(Date.UTC(2010, 0, 1), Date.UTC(2011, 0, 1), 'in 2010');
    expect(timeNote({ now, tz: 'UTC', timeRanges: [early, inside], span })).toBeNull();
    expect(timeNote({ now, tz: 'UTC', timeRanges: [], span: null })).toBe('The memory holds no conversations yet.');
  });
});
