import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ROUTES } from '../../src/serve/http/app.js';
import { normalizeName } from '../../src/resolve/normalize.js';
import { pie, SAMPLE, tempDir } from '../helpers/cli.js';
import { fixtureWorld, NOW, openApi, type Api } from './harness.js';

/**
 * The structured payloads behind the Diff, Snapshot and Search views, on real SQLite databases: the query fixture
 * world (changed through the store where a case needs an archived entity or an ended relationship) and the bundled
 * sample ingested offline (real conversations with turns). Every answer is parsed with the zod schema the route
 * declares, the same one its OpenAPI response is written from.
 */

const T = (iso: string): number => Date.parse(iso);

function responseOf(path: string): z.ZodType {
  const schema = ROUTES.find((r) => r.path === path)?.response;
  if (!schema) throw new Error(`${path} declares no response schema`);
  return schema;
}

async function getParsed<T>(api: Api, path: string): Promise<T> {
  const r = await api.get(path);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const route = path.split('?')[0] ?? path;
  return responseOf(route).parse(r.body) as T;
}

interface Ref {
  id: string;
  name: string;
  type: string;
  tier: string;
}
interface Edge {
  type: string;
  source: Ref;
  target: Ref;
  properties: Record<string, unknown>;
  since: string;
  until: string | null;
}
interface Diff {
  text: string;
  diff: {
    created: { total: number; items: (Ref & { firstSeen: string })[] };
    attributesChanged: { items: { entity: Ref; attribute: string; from: unknown; to: unknown }[] };
    relationshipsBegun: { items: (Edge & { time: string })[] };
    relationshipsEnded: { items: (Edge & { time: string })[] };
    contradictions: { items: { entity: Ref; summary: string }[] };
  };
}
interface Snapshot {
  text: string;
  snapshot: {
    byTier: Record<string, number>;
    entities: (Ref & { state: Record<string, unknown> })[];
    relationships: Edge[];
  };
}

describe('HTTP API: structured diff and snapshot', () => {
  let world: Awaited<ReturnType<typeof fixtureWorld>>;
  let api: Api;

  beforeAll(async () => {
    world = await fixtureWorld();
    api = await openApi({ db: world.db });
    const { store } = api.services;
    const byName = async (name: string) => {
      const [e] = await store.entities.findByKey(normalizeName(name));
      if (!e) throw new Error(`no ${name} in the fixture`);
      return e;
    };
    // Neo4j is archived after the gap semester (as a sleep does: an archival transition, then the tier).
    const neo4j = await byName('Neo4j');
    const archivedAt = T('2025-10-10T12:00:00Z');
    await store.transitions.insert({
      id: 'archive-neo4j',
      entityId: neo4j.id,
      kind: 'archival',
      fromState: {},
      toState: {},
      summary: 'Archived.',
      eventTime: archivedAt,
      recordedAt: archivedAt,
      confidence: 1,
      episodeId: null,
      batchId: null,
      resolvedBy: null,
    });
    await store.entities.update(neo4j.id, { tier: 'archived', updatedAt: archivedAt });
    // Maya stops working on Tidepool as co-founder between the two periods.
    const maya = await byName('Maya Chen');
    const tidepool = await byName('Tidepool');
    const works = await store.relationships.findOpen({ sourceId: maya.id, targetId: tidepool.id, type: 'WORKS_ON' });
    if (!works) throw new Error('no Maya WORKS_ON Tidepool in the fixture');
    await store.relationships.close({ id: works.id, validTo: T('2025-06-01T12:00:00Z') });
  });
  afterAll(async () => {
    await api.close();
    world.cleanup();
  });

  it('diffs two periods into typed sections next to the compiled text', async () => {
    const r = await getParsed<Diff>(api, '/api/diff?a=junior%20year&b=gap%20semester');
    expect(r.text).toContain('Changes from the end of junior year at UMD');
    const d = r.diff;
    expect(d.created.items.map((e) => e.name)).toEqual(
      expect.arrayContaining(['FalkorDB', 'gap semester in San Francisco']),
    );
    expect(d.attributesChanged.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          entity: expect.objectContaining({ name: 'Tidepool', type: 'project' }),
          attribute: 'focus',
          from: 'surf reports',
          to: 'tide alerts',
        }),
        expect.objectContaining({ attribute: 'role', from: 'classmate', to: 'advisor' }),
      ]),
    );
    expect(d.relationshipsBegun.items).toEqual([
      expect.objectContaining({
        type: 'USES',
        source: expect.objectContaining({ name: 'PIE' }),
        target: expect.objectContaining({ name: 'FalkorDB' }),
        since: '2025-09-20T20:00:00.000Z',
        until: null,
      }),
    ]);
    expect(d.contradictions.items.map((c) => c.entity.name)).toEqual(['Tidepool']);
  });

  it('carries an ended relationship with its role, since and until', async () => {
    const r = await getParsed<Diff>(api, '/api/diff?a=junior%20year&b=gap%20semester');
    expect(r.diff.relationshipsEnded.items).toEqual([
      expect.objectContaining({
        type: 'WORKS_ON',
        source: expect.objectContaining({ name: 'Maya Chen' }),
        target: expect.objectContaining({ name: 'Tidepool' }),
        properties: { role: 'co-founder' },
        since: '2024-09-10T15:00:00.000Z',
        until: '2025-06-01T12:00:00.000Z',
        time: '2025-06-01T12:00:00.000Z',
      }),
    ]);
    // Read before it ended, a snapshot shows the edge with the end still to come.
    const s = await getParsed<Snapshot>(api, '/api/snapshot?at=2025-03-01');
    expect(s.snapshot.relationships.find((e) => e.type === 'WORKS_ON')).toMatchObject({
      properties: { role: 'co-founder' },
      since: '2024-09-10T15:00:00.000Z',
      until: '2025-06-01T12:00:00.000Z',
    });
  });

  it('badges every entity with the tier it had then, not the tier it has now', async () => {
    const neo4jIn = (refs: Ref[]) => refs.find((e) => e.name === 'Neo4j');
    const diff = await getParsed<Diff>(api, '/api/diff?a=junior%20year&b=gap%20semester');
    const change = diff.diff.attributesChanged.items.find((c) => c.entity.name === 'Neo4j');
    expect(change).toMatchObject({ attribute: 'status', from: 'evaluating', to: 'dropped' });
    expect(change?.entity.tier).toBe('active');
    const then = await getParsed<Snapshot>(api, '/api/snapshot?at=gap%20semester');
    expect(neo4jIn(then.snapshot.entities)?.tier).toBe('active');
    expect(then.snapshot.byTier).toEqual({ active: 10, summarized: 0, archived: 0 });
    const uses = then.snapshot.relationships.find((e) => e.type === 'USES' && e.target.name === 'Neo4j');
    expect(uses?.target.tier).toBe('active');
    const now = await getParsed<Snapshot>(api, '/api/snapshot');
    expect(neo4jIn(now.snapshot.entities)?.tier).toBe('archived');
    expect(now.snapshot.byTier.archived).toBe(1);
    expect(now.snapshot.entities.every((e) => ['active', 'summarized', 'archived'].includes(e.tier))).toBe(true);
  });

  it('writes the response schemas into the OpenAPI document', async () => {
    const r = await api.get<{ paths: Record<string, Record<string, Record<string, unknown>>> }>('/api/openapi.json');
    const schema = (path: string) => {
      const op = r.body.paths[path]?.get as {
        responses: { '200': { content: { 'application/json': { schema: Record<string, unknown> } } } };
      };
      return op.responses['200'].content['application/json'].schema as {
        properties: Record<string, { properties?: Record<string, unknown> }>;
        required: string[];
      };
    };
    const diff = schema('/api/diff');
    expect(diff.required).toEqual(['text', 'diff']);
    expect(Object.keys(diff.properties.diff?.properties ?? {})).toEqual(
      expect.arrayContaining(['created', 'attributesChanged', 'relationshipsEnded', 'contradictions']),
    );
    const snapshot = schema('/api/snapshot');
    expect(Object.keys(snapshot.properties.snapshot?.properties ?? {})).toEqual(
      expect.arrayContaining(['entities', 'relationships', 'byTier']),
    );
    const search = schema('/api/search');
    expect(search.required).toEqual(expect.arrayContaining(['items', 'entities', 'conversations', 'reading', 'lanes']));
    // A route without a declared answer is still described as an object.
    expect(schema('/api/periods')).toEqual({ type: 'object' });
  });
});

interface Search {
  items: {
    kind: string;
    title: string;
    entity: { name: string } | null;
    episodeId: string | null;
    seq: number | null;
  }[];
  entities: {
    name: string;
    type: string;
    tier: string;
    matched: string;
    exact: boolean;
    changes: number;
    state: Record<string, unknown>;
    latestChange: { summary: string; time: string; episodeId: string | null; episodeTitle: string | null } | null;
  }[];
  conversations: { episodeId: string; title: string; turns: { seq: number; snippet: string | null }[] }[];
  reading: {
    intent: string;
    entities: { name: string }[];
    timeRanges: { text: string; kind: string; label: string; start: string; end: string }[];
    wantsHistory: boolean;
    lanes: { lane: string; hits: number; skipped?: string }[];
  };
}

describe('HTTP API: search that leads with the thing (the bundled sample)', () => {
  let dir: ReturnType<typeof tempDir>;
  let api: Api;

  beforeAll(async () => {
    dir = tempDir('pie-http-search-');
    const db = join(dir.dir, 'pie.db');
    const ingested = await pie(['--db', db, '--tz', 'UTC', '--now', NOW, 'ingest', SAMPLE, '--extractor', 'offline']);
    if (ingested.code !== 0) throw new Error(ingested.stderr);
    api = await openApi({ db });
  }, 120_000);
  afterAll(async () => {
    await api.close();
    dir.cleanup();
  });

  it('answers an entity card when the query is its exact name, with its latest change', async () => {
    const r = await getParsed<Search>(api, '/api/search?q=Tidepool&limit=30');
    expect(r.entities.map((e) => e.name)).toEqual(['Tidepool']);
    const card = r.entities[0];
    expect(card).toMatchObject({ type: 'project', tier: 'active', matched: 'Tidepool', exact: true });
    expect(card?.state.focus).toBe('a research-notes tool for labs');
    expect(card?.changes).toBeGreaterThan(5);
    // The latest change: the newest of its timeline (two changes share that conversation's time).
    const timeline = await api.get<{ transitions: { total: number; items: { time: string }[] } }>(
      '/api/entities/Tidepool?limit=1000',
    );
    expect(card?.changes).toBe(timeline.body.transitions.total);
    expect(card?.latestChange?.time).toBe(timeline.body.transitions.items.at(-1)?.time);
    expect(card?.latestChange?.episodeTitle).toBe('Hiring our first engineer');
    // The ranked list alone puts the entity behind turns and conversations: the card is what leads.
    expect(r.items[0]?.title).not.toBe('Tidepool');
  });

  it('finds the entity by an alias, and by a name inside a longer query', async () => {
    const alias = await getParsed<Search>(api, '/api/search?q=TP');
    expect(alias.entities[0]).toMatchObject({ name: 'Tidepool', matched: 'TP', exact: true });
    const inside = await getParsed<Search>(api, '/api/search?q=Maya%20Chen%20fundraising');
    expect(inside.entities[0]).toMatchObject({ name: 'Maya Chen', exact: false });
    // A period is a card only when the query is its whole name (otherwise it is a time range); exact names lead.
    const period = await getParsed<Search>(api, '/api/search?q=junior%20year%20at%20UMD');
    expect(period.entities.map((e) => [e.name, e.exact])).toEqual([
      ['junior year at UMD', true],
      ['University of Maryland', false],
    ]);
    const inPeriod = await getParsed<Search>(api, '/api/search?q=Tidepool%20during%20junior%20year%20at%20UMD');
    expect(inPeriod.entities.map((e) => e.type)).not.toContain('period');
  });

  it('groups conversations with their matching turns, each turn once, in the ranked order', async () => {
    const r = await getParsed<Search>(api, '/api/search?q=Tidepool&limit=30');
    const ids = r.conversations.map((c) => c.episodeId);
    expect(new Set(ids).size).toBe(ids.length);
    const turnHits = r.items.filter((i) => i.kind === 'turn');
    expect(r.conversations.reduce((n, c) => n + c.turns.length, 0)).toBe(turnHits.length);
    for (const hit of turnHits) {
      const group = r.conversations.find((c) => c.episodeId === hit.episodeId);
      expect(group?.turns.map((t) => t.seq)).toContain(hit.seq);
    }
    const firstConversation = r.items.find((i) => i.kind === 'turn' || i.kind === 'episode');
    expect(ids[0]).toBe(firstConversation?.episodeId);
    const several = r.conversations.find((c) => c.turns.length > 1);
    expect(several?.turns.map((t) => t.seq)).toEqual(
      [...(several?.turns.map((t) => t.seq) ?? [])].sort((a, b) => a - b),
    );
    expect(several?.turns.every((t) => t.snippet?.includes('«Tidepool»'))).toBe(true);
  });

  it('says how a query that matches nothing was read: the time range and the lanes', async () => {
    const r = await getParsed<Search>(api, '/api/search?q=zzqx%20in%20spring%202019');
    expect(r.items).toEqual([]);
    expect(r.entities).toEqual([]);
    expect(r.conversations).toEqual([]);
    expect(r.reading.timeRanges).toEqual([
      {
        text: 'spring 2019',
        kind: 'season',
        label: 'spring 2019 (1 Mar – 31 May 2019)',
        start: '2019-03-01T00:00:00.000Z',
        end: '2019-06-01T00:00:00.000Z',
      },
    ]);
    expect(r.reading.entities).toEqual([]);
    const lanes = Object.fromEntries(r.reading.lanes.map((l) => [l.lane, l]));
    expect(lanes.lexical).toEqual({ lane: 'lexical', hits: 0 });
    expect(lanes.temporal?.hits).toBe(0);
    expect(lanes.vector?.skipped).toMatch(/no embedder/);
  });
});
