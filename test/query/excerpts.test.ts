import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { loadExcerpts } from '../../src/query/subgraph/excerpts.js';
import type { RankedItem } from '../../src/query/types.js';
import { T0, addEpisode, turn } from '../contracts/world-store/fixtures.js';

/** Which lines of a conversation the context shows (real SQLite). */
let store: WorldStore;
beforeEach(async () => {
  store = await openSqliteStore({ path: ':memory:' });
});
afterEach(async () => {
  await store.close();
});

const turnItem = (episodeId: string, seq: number): RankedItem => ({
  key: `turn:${episodeId}#${seq}`,
  ref: { kind: 'turn', episodeId, seq },
  score: 1,
  rrf: 1,
  importance: 0.5,
  time: T0,
  recency: 1,
  lanes: ['lexical'],
});

describe('loadExcerpts', () => {
  it('shows the best-ranked matching turns of a conversation, in conversation order', async () => {
    const id = await addEpisode(store, {
      externalId: 'c1',
      turns: [0, 1, 2, 3, 4, 5].map((i) => turn(i % 2 === 0 ? 'user' : 'assistant', `line ${i}`)),
    });
    // Fused order: 4 first, then 0, 5 and 1; three lines fit.
    const items = [4, 0, 5, 1].map((seq) => turnItem(id, seq));
    const [excerpt] = await loadExcerpts({ store, items, maxEpisodes: 8, maxLines: 3 });
    expect(excerpt?.lines.map((l) => l.seq)).toEqual([0, 4, 5]);
    expect(excerpt?.lines.map((l) => l.text)).toEqual(['line 0', 'line 4', 'line 5']);
  });
});
