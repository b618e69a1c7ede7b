import { describe, expect, it } from 'vitest';
import { edgeStart, type TimeContext } from './time-format.js';

const ctx = (format: TimeContext['format']): TimeContext => ({ now: 0, tz: 'UTC', format, periods: [] });

describe('edgeStart', () => {
  it.each([
    ['semantic', 'KNOWS', '40 days ago', 'as of 40 days ago'],
    ['semantic', 'FROM', 'about 2 months ago', 'as of about 2 months ago'],
    ['semantic', 'WORKS_ON', '40 days ago', 'since 40 days ago'],
    ['absolute', 'KNOWS', '8 May 2023', 'by 8 May 2023'],
    ['hybrid', 'KNOWS', '8 May 2023 (40 days ago)', 'by 8 May 2023 (40 days ago)'],
    ['absolute', 'WORKS_ON', '8 May 2023', 'since 8 May 2023'],
  ] as const)('%s %s %s → %s', (format, type, text, expected) => {
    expect(edgeStart(ctx(format), type, text)).toBe(expected);
  });
});
