import { describe, expect, it } from 'vitest';
import { groupByLocalDay } from './day-groups.js';

describe('groupByLocalDay', () => {
  it('groups by the local day in the given zone, days and items in time order', () => {
    const items = [
      { id: 'c', time: Date.UTC(2024, 2, 16, 1) }, // 15th in New York
      { id: 'a', time: Date.UTC(2024, 2, 15, 12) },
      { id: 'b', time: Date.UTC(2024, 2, 15, 12) },
      { id: 'd', time: Date.UTC(2024, 2, 17, 12) },
    ];
    expect(groupByLocalDay({ items, tz: 'America/New_York' }).map((g) => [g.day, g.items.map((i) => i.id)])).toEqual([
      ['2024-03-15', ['a', 'b', 'c']],
      ['2024-03-17', ['d']],
    ]);
    expect(groupByLocalDay({ items, tz: 'UTC' }).map((g) => g.day)).toEqual(['2024-03-15', '2024-03-16', '2024-03-17']);
  });
});
