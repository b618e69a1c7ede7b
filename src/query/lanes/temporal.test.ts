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
});

describe('interleave', () => {
  it('takes each list’s first item before any list’s second', () => {
    expect(interleave([[1, 2, 3], [10], [20, 21]])).toEqual([1, 10, 20, 2, 21, 3]);
    expect(interleave([])).toEqual([]);
  });
});
