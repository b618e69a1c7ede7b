import { describe, expect, it } from 'vitest';
import { undoneRow } from './undo-merge.js';

describe('the row a forced undo writes back', () => {
  const before = { id: 'e', tier: 'active', importance: 0.6, state: '{"stage":"idea"}', last_seen: 1, version: 1 };
  const after = { ...before, tier: 'dormant', importance: 0.2, version: 2 };

  it('a row as the run left it gets its image from before the run', () => {
    expect(undoneRow({ before, after, now: after })).toEqual(before);
    expect(undoneRow({ before: null, after, now: after })).toBeNull();
    expect(undoneRow({ before, after: null, now: null })).toEqual(before);
  });

  it('keeps what changed after the run and reverts the rest, column by column', () => {
    const now = { ...after, state: '{"stage":"launched"}', last_seen: 9, version: 3 };
    expect(undoneRow({ before, after, now })).toEqual({
      ...before,
      state: '{"stage":"launched"}',
      last_seen: 9,
      version: 3,
    });
  });

  it('never brings back a row removed since, nor removes one that changed since', () => {
    expect(undoneRow({ before, after, now: null })).toBeNull();
    const changed = { ...after, importance: 0.9 };
    expect(undoneRow({ before: null, after, now: changed })).toEqual(changed);
    const again = { ...before, version: 5 };
    expect(undoneRow({ before, after: null, now: again })).toEqual(again);
  });
});
