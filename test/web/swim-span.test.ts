import { describe, expect, it } from 'vitest';
import { swimSpan } from '../../web/src/views/swim-span.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2023, 3, 27);

describe('the attribute bars’ time axis', () => {
  it('runs to now when the history is longer than the quiet stretch since', () => {
    const times = [T0, T0 + 100 * DAY, T0 + 300 * DAY];
    expect(swimSpan({ times, lastSeen: T0 + 300 * DAY, now: T0 + 400 * DAY })).toEqual({
      start: T0,
      end: T0 + 400 * DAY,
    });
  });

  it('ends a quarter of the history after the last change when now is much later (MemoryBank read years on)', () => {
    // Nine values over ten days, read three and a half years later: the changes fill four fifths of the bar.
    const times = Array.from({ length: 9 }, (_, i) => T0 + i * DAY);
    const span = swimSpan({ times, lastSeen: T0 + 10 * DAY, now: T0 + 1300 * DAY });
    expect(span).toEqual({ start: T0, end: T0 + 12.5 * DAY });
    expect((T0 + 10 * DAY - span.start) / (span.end - span.start)).toBe(0.8);
  });

  it('keeps a day of room after a history of one day, and survives unknown times', () => {
    expect(swimSpan({ times: [T0], lastSeen: T0, now: T0 + 900 * DAY })).toEqual({ start: T0, end: T0 + DAY });
    expect(swimSpan({ times: [T0, Number.NaN], lastSeen: Number.NaN, now: Number.NaN })).toEqual({
      start: T0,
      end: T0 + 1,
    });
    expect(swimSpan({ times: [], lastSeen: Number.NaN, now: Number.NaN })).toEqual({ start: 0, end: 1 });
  });
});
