import { describe, expect, it } from 'vitest';
import { findStatedDate, localYmd } from './dates.js';

// 2025-01-30 is a Thursday.
const REF = '2025-01-30';

describe('findStatedDate', () => {
  it.each([
    ['by January 20', 'future', '2025-01-20'],
    ['by Friday, April 11', 'future', '2025-04-11'],
    ['on 3 March 2024', 'past', '2024-03-03'],
    ['deadline is November 1', 'future', '2025-11-01'],
    ['we launched on Monday', 'past', '2025-01-27'],
    ['by Friday', 'future', '2025-01-31'],
    ['last Thursday', 'nearest', '2025-01-23'],
    ['see you tomorrow', 'future', '2025-01-31'],
    ['it was on 2024-12-15 exactly', 'past', '2024-12-15'],
    ['we met on December 20', 'past', '2024-12-20'],
    ['classes started August 26', 'past', '2024-08-26'],
  ] as const)('%s (%s) → %s', (text, direction, ymd) => {
    expect(findStatedDate(text, REF, direction)?.ymd).toBe(ymd);
  });

  it.each(['I may go', 'the sun is out', 'we sat down', 'in 2024 I worked'])('%s has no date', (text) => {
    expect(findStatedDate(text, REF, 'nearest')).toBeNull();
  });
});

describe('localYmd', () => {
  it('uses the time zone, and UTC for an unknown zone', () => {
    const t = Date.UTC(2025, 0, 31, 2);
    expect(localYmd(t, 'America/New_York')).toBe('2025-01-30');
    expect(localYmd(t, 'Not/AZone')).toBe('2025-01-31');
  });
});
