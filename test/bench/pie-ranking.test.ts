import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { pieRankings } from '../../src/bench/pie-ranking.js';
import type { BenchWorld } from '../../src/bench/world.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import type { QueryContext } from '../../src/query/ask.js';
import type { RankedItem, SubgraphEntity } from '../../src/query/types.js';
import { entity, transition } from '../../src/query/test-kit.js';
import { T0, addEpisode, turn } from '../contracts/world-store/fixtures.js';

/** How PIE's fused items map to the benchmark's turns and sessions (docs/evaluation.md), on a hand-made context. */
let store: WorldStore;
beforeEach(async () => {
  store = await openSqliteStore({ path: ':memory:' });
});
afterEach(async () => {
  await store.close();
});

const item = (ref: RankedItem['ref']): RankedItem => ({
  key: JSON.stringify(ref),
  ref,
  score: 1,
  rrf: 1,
  importance: 0.5,
  time: T0,
  recency: 1,
  lanes: ['lexical'],
});

describe('pieRankings', () => {
  it('an entity stands for the conversations its context block cites, latest change first; an unshown one for nothing', async () => {
    const turns = [turn('user', 'one'), turn('assistant', 'two')];
    const s1 = await addEpisode(store, { externalId: 's1', turns }, 'h1');
    await addEpisode(store, { externalId: 's2', turns }, 'h2');
    const [s3, s4] = [
      await addEpisode(store, { externalId: 's3', turns }, 'h3'),
      await addEpisode(store, { externalId: 's4', turns }, 'h4'),
    ];
    const episodes = await store.episodes.list();
    const world: BenchWorld = {
      store,
      ingest: {} as BenchWorld['ingest'],
      sessionOf: new Map(episodes.map((e) => [e.id, e.externalId])),
      turnIdOf: new Map(episodes.flatMap((e) => [0, 1].map((seq) => [`${e.id}#${seq}`, `${e.externalId}:${seq}`]))),
      close: () => store.close(),
    };
    const shown: SubgraphEntity = {
      entity: entity({ id: 'ana', name: 'Ana' }),
      // Chronological, as the block shows them: s1's change is older than s3's.
      transitions: [
        transition({ id: 't1', eventTime: T0, episodeId: s1 }),
        transition({ id: 't3', eventTime: T0 + 1000, episodeId: s3 }),
      ],
      transitionCount: 2,
      changeCount: 1,
      hiddenCount: 0,
      relationships: [],
    };
    const s1Episode = episodes.find((e) => e.id === s1);
    if (!s1Episode) throw new Error('fixture');
    const context = {
      items: [
        item({ kind: 'entity', id: 'hidden' }),
        item({ kind: 'entity', id: 'ana' }),
        item({ kind: 'turn', episodeId: s4, seq: 1 }),
      ],
      subgraph: {
        entities: [shown],
        procedures: [],
        contradictions: [],
        paths: [],
        events: [],
        excerpts: [{ episode: s1Episode, lines: [{ role: 'user', speaker: null, text: 'one', seq: 0, time: null }] }],
      },
    } as unknown as QueryContext;
    const r = await pieRankings({ world, context });
    // s2 is mentioned nowhere in the context: it is never credited.
    expect(r.all.sessions).toEqual(['s3', 's1', 's4']);
    // s3 shows no excerpt, s1 shows its turn 0, then the turn hit.
    expect(r.all.turns).toEqual(['s1:0', 's4:1']);
    expect(r.turnsOnly).toEqual({ turns: ['s4:1'], sessions: ['s4'] });
  });
});
