import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { graphLane } from '../../src/query/lanes/graph.js';
import { lexicalLane } from '../../src/query/lanes/lexical.js';
import { recentLane } from '../../src/query/lanes/recent.js';
import { temporalLane } from '../../src/query/lanes/temporal.js';
import type { QueryPlan } from '../../src/query/types.js';
import { DAY, T0, addEntity, addEpisode, relationship, transition, turn } from '../contracts/world-store/fixtures.js';

/** What the graph and recent lanes retrieve, on a small world written through the storage port (real SQLite). */
let dir = '';
let store: WorldStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pie-lanes-'));
  store = await openSqliteStore({ path: join(dir, 'pie.db'), clock: () => T0 });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

function plan(overrides: Partial<QueryPlan> = {}): QueryPlan {
  return {
    question: 'question',
    intent: 'general',
    entityIds: [],
    unknownNames: [],
    timeRanges: [],
    wantsHistory: false,
    timeFormat: 'hybrid',
    decidedBy: 'rules',
    ...overrides,
  };
}

const ids = (hits: { ref: { kind: string } & Record<string, unknown> }[]): string[] =>
  hits.map((h) => `${h.ref.kind}:${String(h.ref.id)}`);

describe('graph lane', () => {
  /**
   * seed ─WORKS_ON→ strong (0.9 confidence, importance 0.9), weak (0.4, 0.5), archived (0.9, 0.9, archived);
   * seed ─DURING→ period; seed ─USES→ old (ended); other seed ─USES→ seed; far ─USES→ strong (two hops away).
   */
  beforeEach(async () => {
    await addEntity(store, 'seed', { importance: 0.6 });
    await addEntity(store, 'seed2', { importance: 0.6 });
    await addEntity(store, 'strong', { importance: 0.9 });
    await addEntity(store, 'weak', { importance: 0.5 });
    await addEntity(store, 'archived', { importance: 0.9 });
    await store.entities.update('archived', { tier: 'archived', updatedAt: T0 });
    await addEntity(store, 'period', { type: 'period', importance: 0.9 });
    await addEntity(store, 'old', { importance: 0.9 });
    await addEntity(store, 'far', { importance: 0.9 });
    const edges = [
      relationship('r1', 'seed', 'strong', { confidence: 0.9 }),
      relationship('r2', 'seed', 'weak', { confidence: 0.4 }),
      relationship('r3', 'seed', 'archived', { confidence: 0.9 }),
      relationship('r4', 'seed', 'period', { type: 'DURING', confidence: 1 }),
      relationship('r5', 'seed', 'old', { type: 'USES', confidence: 0.9, validTo: T0 + DAY }),
      relationship('r6', 'seed2', 'seed', { type: 'USES', confidence: 1 }),
      relationship('r7', 'far', 'strong', { type: 'USES', confidence: 1 }),
    ];
    for (const r of edges) await store.relationships.insert(r);
  });

  const run = (input: { seeds: string[]; perSeed?: number; limit?: number; history?: boolean }) =>
    graphLane({
      store,
      plan: plan({ wantsHistory: input.history ?? false }),
      now: T0 + 10 * DAY,
      settings: { limit: input.limit ?? 10, weight: 1 },
      seeds: input.seeds,
      perSeed: input.perSeed ?? 5,
    });

  it('one hop over current edges, strongest and most important first; no archived, period or ended neighbour', async () => {
    const lane = await run({ seeds: ['seed'] });
    expect(ids(lane.hits)).toEqual(['entity:strong', 'entity:seed2', 'entity:weak']);
    expect(lane.hits[0]).toMatchObject({ importance: 0.9, time: T0 });
  });

  it('ended relationships count when the question wants history', async () => {
    const lane = await run({ seeds: ['seed'], history: true });
    expect(ids(lane.hits)).toContain('entity:old');
  });

  it('keeps the strongest neighbours per seed, never a seed itself, and at most the lane limit', async () => {
    expect(ids((await run({ seeds: ['seed'], perSeed: 1 })).hits)).toEqual(['entity:seed2']);
    const both = await run({ seeds: ['seed', 'seed2'] });
    expect(ids(both.hits)).toEqual(['entity:strong', 'entity:weak']);
    expect((await run({ seeds: ['seed'], limit: 1 })).hits).toHaveLength(1);
  });

  it('is skipped without seeds or when off', async () => {
    expect(await run({ seeds: [] })).toMatchObject({ hits: [], skipped: 'no entity to expand from' });
    expect(await run({ seeds: ['seed'], limit: 0 })).toMatchObject({ hits: [], skipped: 'off for this intent' });
  });
});

describe('recent lane', () => {
  it('the latest conversations before now, newest first, up to the limit, with their significance', async () => {
    const at = (d: number) => T0 + d * DAY;
    const e1 = await addEpisode(store, { externalId: 'e1', createdAt: at(1) });
    const e2 = await addEpisode(store, { externalId: 'e2', createdAt: at(2) });
    const e3 = await addEpisode(store, { externalId: 'e3', createdAt: at(3) });
    await addEpisode(store, { externalId: 'future', createdAt: at(20) });
    await store.episodes.annotate({ id: e3, significance: 0.9 });
    const lane = (limit: number) => recentLane({ store, plan: plan(), now: at(10), settings: { limit, weight: 1 } });
    const three = await lane(3);
    expect(ids(three.hits)).toEqual([`episode:${e3}`, `episode:${e2}`, `episode:${e1}`]);
    expect(three.hits.map((h) => [h.time, h.importance])).toEqual([
      [at(3), 0.9],
      [at(2), 0.5],
      [at(1), 0.5],
    ]);
    expect(ids((await lane(1)).hits)).toEqual([`episode:${e3}`]);
    expect(await lane(0)).toMatchObject({ hits: [], skipped: 'off for this intent' });
  });
});

describe('lexical lane', () => {
  /** Three conversations whose titles all name Ana; one of them talks about her research, in two turns. */
  const world = async (): Promise<string[]> => {
    const filler = [turn('user', 'hello there'), turn('assistant', 'hi, how can I help?')];
    return [
      await addEpisode(store, {
        externalId: 's1',
        title: 'Ana and Ben, session 1',
        turns: [
          turn('user', 'Good morning!'),
          turn('assistant', 'How is the research going, Ana?'),
          turn('user', 'I found three adoption agencies so far.'),
          turn('assistant', 'That is great news.'),
        ],
      }),
      await addEpisode(store, { externalId: 's2', title: 'Ana and Ben, session 2', turns: filler }, 'hash-2'),
      await addEpisode(store, { externalId: 's3', title: 'Ana and Ben, session 3', turns: filler }, 'hash-3'),
    ];
  };
  const lane = () =>
    lexicalLane({
      store,
      plan: plan({ question: 'What did Ana research?' }),
      now: T0 + DAY,
      settings: { limit: 20, weight: 1 },
    });

  it('drops conversation titles matched only by a word every title has', async () => {
    await world();
    expect((await lane()).hits.filter((h) => h.ref.kind === 'episode')).toEqual([]);
  });

  it('ranks the matching turn first and brings in the turns around it, the reply that answers it included', async () => {
    const [s1] = await world();
    const turns = (await lane()).hits.flatMap((h) => (h.ref.kind === 'turn' ? [h] : []));
    expect(turns.map((h) => (h.ref.kind === 'turn' ? [h.ref.episodeId, h.ref.seq] : null))).toEqual([
      [s1, 1],
      [s1, 0],
      [s1, 2],
    ]);
    // The matched turn keeps its snippet; the neighbours, which matched nothing, have none.
    expect(turns[0]?.snippet).toContain('«research»');
    expect(turns[2]?.snippet).toBeUndefined();
  });
});

describe('temporal lane', () => {
  it('a change in the range is as important as its entity, discounted by its confidence (as in the lexical lane)', async () => {
    await addEntity(store, 'minor', { importance: 0.4 });
    await store.transitions.insert(transition('t1', 'minor', { eventTime: T0 + DAY, confidence: 0.5 }));
    const range = { start: T0, end: T0 + 2 * DAY, text: 'that week', kind: 'relative' as const };
    const lane = await temporalLane({
      store,
      plan: plan({ question: 'What happened that week?', timeRanges: [range] }),
      now: T0 + 10 * DAY,
      settings: { limit: 20, weight: 1 },
    });
    const change = lane.hits.find((h) => h.ref.kind === 'transition');
    expect(change?.importance).toBeCloseTo(0.2, 12);
  });
});
