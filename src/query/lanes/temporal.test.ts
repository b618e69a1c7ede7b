import { describe, expect, it } from 'vitest';
import { activityWindows, interleave } from './temporal.js';

const DAY = 86_400_000;
const T = Date.UTC(2024, 0, 1);

describe('activityWindows', () => {
  it('counts a range of up to 120 days whole', () => {
    expect(activityWindows({ start: T, end: T + 120 * DAY })).toEqual([{ since: T, until: T + 120 * DAY }]);
  });
  it('samples a longer range at its start, middle and end, 30 days each', () => {
    const end = T + 366 * DAY;
    expect(activityWindows({ start: T, end })).toEqual([
      { since: T, until: T + 30 * DAY },
      { since: T + 168 * DAY, until: T + 198 * DAY },
      { since: end - 30 * DAY, until: end },
    ]);
  });
  it('keeps whole milliseconds when the range is an odd number of milliseconds long', () => {
    // A range ending at 23:59:59.999 (an end of day) has an odd length; its middle once came out as x.5 ms, which
    // PostgreSQL refuses for a BIGINT bound.
    const end = T + 300 * DAY - 1;
    const windows = activityWindows({ start: T, end });
    expect(windows.flatMap((w) => [w.since, w.until]).every(Number.isInteger)).toBe(true);
    expect(windows[1]).toEqual({ since: T + 135 * DAY - 1, until: T + 165 * DAY - 1 });
  });
});

describe('interleave', () => {
  it('takes each list’s first item before any list’s second', () => {
    expect(interleave([[1, 2, 3], [10], [20, 21]])).toEqual([1, 10, 20, 2, 21, 3]);
    expect(interleave([])).toEqual([]);
  });
});
