import { describe, expect, it } from 'vitest';
import { distance, midpoint, pinchScale, scrollFor, timeAt } from '../../web/src/views/pinch.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);

describe('pinch zoom math', () => {
  it('measures the fingers: distance and midpoint', () => {
    expect(distance({ x: 0, y: 0 }, { x: 3, y: 4 })).toBe(5);
    expect(midpoint({ x: 10, y: 20 }, { x: 30, y: 40 })).toEqual({ x: 20, y: 30 });
  });

  it.each([
    // [start distance, start px/day, distance now, want]
    [100, 2, 200, 4], // fingers twice as far apart: twice the scale
    [100, 2, 50, 1], // half as far: half
    [100, 2, 100, 2], // unchanged
    [100, 2, 1000, 8], // capped at max
    [100, 2, 1, 0.5], // floored at min
    [0.5, 2, 300, 2], // fingers that started together change nothing
  ])('from %f px apart at %f px/day, %f px apart asks for %f px/day', (d0, px, d, want) => {
    expect(pinchScale({ start: { distance: d0, pxPerDay: px }, distance: d, min: 0.5, max: 8 })).toBe(want);
  });

  it('keeps the moment under the fingers where it was across a zoom', () => {
    const pad = 24;
    const before = { scrollLeft: 300, start: T0, pxPerDay: 2, pad };
    const x = 180;
    const moment = timeAt({ x, ...before });
    expect(moment).toBe(T0 + ((300 + 180 - 24) / 2) * DAY);
    for (const pxPerDay of [0.5, 2, 3.7, 40]) {
      const scrollLeft = scrollFor({ time: moment, x, start: T0, pxPerDay, pad });
      if (scrollLeft > 0) expect(timeAt({ x, scrollLeft, start: T0, pxPerDay, pad })).toBeCloseTo(moment, -1);
    }
    // Never scrolled before the drawing's start.
    expect(scrollFor({ time: T0, x: 500, start: T0, pxPerDay: 2, pad })).toBe(0);
  });
});
