import { describe, expect, it } from 'vitest';
import { groupBy, pushTo } from './collections.js';

describe('groupBy and pushTo', () => {
  it('groups in the items’ order, keys in order of first appearance', () => {
    const rows = [
      { entityId: 'b', n: 1 },
      { entityId: 'a', n: 2 },
      { entityId: 'b', n: 3 },
    ];
    expect([...groupBy(rows, (r) => r.entityId)]).toEqual([
      ['b', [rows[0], rows[2]]],
      ['a', [rows[1]]],
    ]);
  });
  it('pushTo starts a list and then appends to it', () => {
    const map = new Map<string, number[]>();
    pushTo(map, 'k', 1);
    pushTo(map, 'k', 2);
    expect(map.get('k')).toEqual([1, 2]);
  });
});
