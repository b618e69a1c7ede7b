import { describe, expect, it } from 'vitest';
import { skippedCount } from './ingest-render.js';

describe('what an import skipped, counted by what it is', () => {
  const refs = (...r: string[]) => r.map((ref) => ({ ref }));
  it.each([
    [refs('line 3'), '1 line'],
    [refs('line 3', 'line 9'), '2 lines'],
    [refs('conversation "Trip" (abc)'), '1 conversation'],
    [refs('conversation c1 (line 4)', 'line 7'), '1 conversation and 1 line'],
    [refs('item 2 of conversations.json'), '1 item'],
    [refs('file a.json', 'file b/c.zip'), '2 files'],
    [refs('file a.json', 'note n1'), '1 file and 1 other item'],
    [
      refs('conversation "Trip" (abc)', 'line 7', 'project "Garden" (p1)', 'note n1'),
      '1 conversation, 1 line and 2 other items',
    ],
  ])('%j → %s', (skipped, text) => {
    expect(skippedCount(skipped)).toBe(text);
  });
});
