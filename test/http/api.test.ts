import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLines } from '../../src/backup/index.js';
import { ROUTES } from '../../src/serve/http/app.js';
import { DEFAULT_DIFF_LIMIT } from '../../src/query/world-at/diff.js';
import { backupResponse } from '../../src/serve/http/routes/runs.js';
import { fixtureWorld, openApi, type Api } from './harness.js';

interface Page<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
}
interface ErrorBody {
  error: { code: string; message: string; suggestions: string[] };
}
type Row = Record<string, unknown>;

let world: Awaited<ReturnType<typeof fixtureWorld>>;
let api: Api;

beforeAll(async () => {
  world = await fixtureWorld();
  api = await openApi({ db: world.db });
});
afterAll(async () => {
  await api.close();
  world.cleanup();
});

describe('HTTP API: explore', () => {
  it('searches with the same hybrid search as pie search', async () => {
    const r = await api.get<{ items: Row[] }>('/api/search?q=Tidepool&limit=5');
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBeGreaterThan(0);
    expect(r.body.items.length).toBeLessThanOrEqual(5);
    expect(r.body.items.some((i) => i.title === 'Tidepool')).toBe(true);
  });

  it('pages through entities with a total', async () => {
    const first = await api.get<Page<Row>>('/api/entities?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.total).toBeGreaterThan(2);
    const second = await api.get<Page<Row>>('/api/entities?limit=2&offset=2');
    expect(second.body.items[0]?.id).not.toBe(first.body.items[0]?.id);
    const byName = await api.get<Page<Row>>('/api/entities?sort=name&limit=500');
    const names = byName.body.items.map((e) => String(e.name).toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('filters entities by type whatever its case, and refuses an unknown type with 400 naming the known ones', async () => {
    const lower = await api.get<Page<Row>>('/api/entities?type=person&limit=500');
    const camel = await api.get<Page<Row>>('/api/entities?type=PERSON&limit=500');
    expect(camel.status).toBe(200);
    expect(lower.body.total).toBeGreaterThan(0);
    expect(camel.body.total).toBe(lower.body.total);
    expect(camel.body.items.every((e) => e.type === 'person')).toBe(true);
    const bogus = await api.get<ErrorBody>('/api/entities?type=bogus');
    expect(bogus.status).toBe(400);
    expect(bogus.body.error.code).toBe('INVALID_ARGUMENT');
    expect(bogus.body.error.message).toMatch(/^No entity has the type "bogus"; the types in this memory are .*person/);
  });

  it('shows an entity with its timeline, the contradiction marked and its source conversation', async () => {
    const r = await api.get<{
      entity: Row;
      narrative: string;
      transitions: Page<Row>;
      relationships: Row[];
      sources: Row[];
    }>('/api/entities/Tidepool');
    expect(r.status).toBe(200);
    expect(r.body.entity.name).toBe('Tidepool');
    expect(r.body.narrative).toContain('Tidepool');
    const contradiction = r.body.transitions.items.find((t) => t.contradiction === true);
    expect(contradiction).toBeDefined();
    expect(contradiction?.episodeId).toBeTruthy();
    const episode = await api.get<{ title: string; turns: Row[] }>(
      `/api/episodes/${encodeURIComponent(String(contradiction?.episodeId))}`,
    );
    expect(episode.status).toBe(200);
    expect(episode.body.title).toBeTruthy();
    expect(Array.isArray(episode.body.turns)).toBe(true);
  });

  it('shows the periods an entity was first seen in and active in, and a period entity its own span', async () => {
    const r = await api.get<{ period: Row | null; periods: Row[] }>('/api/entities/Tidepool');
    expect(r.body.period).toBeNull();
    // Fixture: first seen (DURING) in junior year, mentioned there three times (idea, graphs, launch) and launched
    // there; pivoted during the gap semester, which it has no DURING edge to.
    expect(r.body.periods).toEqual([
      expect.objectContaining({ name: 'junior year at UMD', during: true, mentions: 3, changes: 1, ongoing: false }),
      expect.objectContaining({ name: 'gap semester in San Francisco', during: false, mentions: 1, changes: 1 }),
    ]);
    const falkor = await api.get<{ periods: Row[] }>('/api/entities/FalkorDB');
    expect(falkor.body.periods.map((p) => [p.name, p.during])).toEqual([['gap semester in San Francisco', true]]);
    const junior = await api.get<{ period: Row | null; periods: Row[] }>('/api/entities/junior%20year%20at%20UMD');
    expect(junior.body.period).toEqual({
      start: '2024-09-10T15:00:00.000Z',
      end: '2025-02-14T10:00:00.000Z',
      ongoing: false,
    });
    expect(junior.body.periods).toEqual([]);
    expect(r.body.periods[0]?.id).toBe((junior.body as unknown as { entity: Row }).entity.id);
  });

  it('pages a timeline', async () => {
    const r = await api.get<{ transitions: Page<Row> }>('/api/entities/Tidepool?limit=1&offset=1');
    expect(r.body.transitions.items).toHaveLength(1);
    expect(r.body.transitions.offset).toBe(1);
    expect(r.body.transitions.total).toBeGreaterThan(1);
  });

  it('answers an unknown entity with 404 and the closest names', async () => {
    const r = await api.get<ErrorBody>('/api/entities/Tidepol');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
    expect(r.body.error.suggestions).toContain('Tidepool');
  });

  it('draws a neighbourhood graph, limited and filtered', async () => {
    const r = await api.get<{ centre: string; nodes: Row[]; edges: Row[] }>('/api/graph?entity=Tidepool&depth=2');
    expect(r.status).toBe(200);
    expect(r.body.nodes.some((n) => n.id === r.body.centre && n.name === 'Tidepool')).toBe(true);
    expect(r.body.edges.length).toBeGreaterThan(0);
    const ids = new Set(r.body.nodes.map((n) => n.id));
    for (const e of r.body.edges) expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
    const small = await api.get<{ nodes: Row[]; truncated: boolean }>('/api/graph?entity=Tidepool&depth=2&limit=2');
    expect(small.body.nodes).toHaveLength(2);
    const people = await api.get<{ nodes: Row[] }>('/api/graph?entity=Tidepool&types=person');
    expect(people.body.nodes.every((n) => n.type === 'person' || n.name === 'Tidepool')).toBe(true);
  });

  it('caps the edges (those touching the centre first) and says how many there were', async () => {
    type G = { centre: string; edgeTotal: number; edges: Row[] };
    const all = await api.get<G>('/api/graph?entity=Tidepool&depth=2&ended=true');
    // The answer is what the route's response schema (its OpenAPI description) says.
    ROUTES.find((r) => r.path === '/api/graph')?.response?.parse(all.body);
    expect(all.body.edgeTotal).toBe(all.body.edges.length);
    expect(all.body.edges.some((e) => e.source !== all.body.centre && e.target !== all.body.centre)).toBe(true);
    const one = await api.get<G>('/api/graph?entity=Tidepool&depth=2&ended=true&max_edges=1');
    expect(one.body.edgeTotal).toBe(all.body.edgeTotal);
    expect(one.body.edges).toHaveLength(1);
    expect([one.body.edges[0]?.source, one.body.edges[0]?.target]).toContain(one.body.centre);
    const bad = await api.get<ErrorBody>('/api/graph?entity=Tidepool&max_edges=5000');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('max_edges');
  });
});

describe('HTTP API: links among the entities a graph shows', () => {
  type G = { centre: string; nodes: Row[]; edges: Row[] };
  it('gives the relationships between newly shown entities and those shown, each once, with the same filters', async () => {
    // Tidepool's neighbours, then one of them expanded: what links its new neighbours to each other and to the rest?
    const whole = await api.get<G>('/api/graph?entity=Tidepool&depth=2&ended=true');
    const first = await api.get<G>('/api/graph?entity=Tidepool&ended=true');
    const shown = first.body.nodes.map((n) => String(n.id));
    const fresh = whole.body.nodes.map((n) => String(n.id)).filter((id) => !shown.includes(id));
    expect(fresh.length).toBeGreaterThan(0);
    const r = await api.post<{ edges: Row[] }>('/api/graph/links', { ids: fresh, among: shown, ended: true });
    expect(r.status).toBe(200);
    ROUTES.find((x) => x.path === '/api/graph/links')?.response?.parse(r.body);
    const all = new Set([...shown, ...fresh]);
    // Exactly the two-hop graph's edges that touch a new entity (that graph holds every edge among its nodes found
    // from the centre and its neighbours).
    const want = whole.body.edges
      .filter((e) => fresh.includes(String(e.source)) || fresh.includes(String(e.target)))
      .map((e) => e.id)
      .sort();
    const got = r.body.edges.map((e) => e.id).sort();
    for (const e of r.body.edges) {
      expect(all.has(String(e.source)) && all.has(String(e.target))).toBe(true);
      expect(fresh.includes(String(e.source)) || fresh.includes(String(e.target))).toBe(true);
    }
    expect(got).toEqual([...new Set(got)]);
    for (const id of want) expect(got).toContain(id);
    // Without ended ones, and as of a date before any of them: fewer, then none.
    const current = await api.post<{ edges: Row[] }>('/api/graph/links', { ids: fresh, among: shown });
    expect(current.body.edges.every((e) => e.until === null)).toBe(true);
    const early = await api.post<{ edges: Row[] }>('/api/graph/links', { ids: fresh, among: shown, at: '2020-01-01' });
    expect(early.body.edges).toEqual([]);
    const bad = await api.post<ErrorBody>('/api/graph/links', { ids: [] });
    expect(bad.status).toBe(400);
  });
});

describe('HTTP API: graph filters by time and importance', () => {
  // A world of its own: importances are set here, so the shared one stays as applied.
  let own: Awaited<ReturnType<typeof fixtureWorld>>;
  let g: Api;
  const names = async (query: string) => {
    const r = await g.get<{ nodes: Row[]; edges: Row[] }>(`/api/graph?entity=Tidepool&${query}`);
    expect(r.status).toBe(200);
    const ids = new Set(r.body.nodes.map((n) => n.id));
    for (const e of r.body.edges) expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
    return r.body.nodes.map((n) => String(n.name)).sort();
  };
  beforeAll(async () => {
    own = await fixtureWorld();
    g = await openApi({ db: own.db });
    const importance: Record<string, number> = {
      Tidepool: 0.1,
      Neo4j: 0.9,
      'Maya Chen': 0.6,
      PIE: 0.2,
      'junior year at UMD': 0.3,
    };
    for (const e of await g.services.store.entities.list({ limit: 100 })) {
      const value = importance[e.name];
      if (value !== undefined) {
        await g.services.store.entities.update(e.id, { importance: value, updatedAt: g.deps.clock.now() });
      }
    }
  });
  afterAll(async () => {
    await g.close();
    own.cleanup();
  });

  it('min_importance leaves out less important neighbours but always keeps the centre', async () => {
    expect(await names('')).toEqual(['Maya Chen', 'Neo4j', 'PIE', 'Tidepool', 'junior year at UMD']);
    expect(await names('min_importance=0.5')).toEqual(['Maya Chen', 'Neo4j', 'Tidepool']);
    expect(await names('min_importance=0.7')).toEqual(['Neo4j', 'Tidepool']);
    expect(await names('min_importance=1')).toEqual(['Tidepool']);
    const bad = await g.get<ErrorBody>('/api/graph?entity=Tidepool&min_importance=2');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('min_importance');
  });

  it('at keeps only the relationships valid then: a date, or a period (read at its end)', async () => {
    // PIE INSPIRED_BY Tidepool starts on 2 November 2024; the other edges on 10 September 2024.
    expect(await names('at=2024-10-01')).toEqual(['Maya Chen', 'Neo4j', 'Tidepool', 'junior year at UMD']);
    expect(await names('at=2024-12-01')).toEqual(['Maya Chen', 'Neo4j', 'PIE', 'Tidepool', 'junior year at UMD']);
    expect(await names('at=junior%20year')).toContain('PIE');
    // Before Tidepool existed: the centre alone.
    expect(await names('at=2024-06-01')).toEqual(['Tidepool']);
    expect(await names('at=2024-12-01&min_importance=0.5')).toEqual(['Maya Chen', 'Neo4j', 'Tidepool']);
    const unknown = await g.get<ErrorBody>('/api/graph?entity=Tidepool&at=my%20PhD');
    expect(unknown.status).toBe(404);
  });
});

describe('HTTP API: time', () => {
  it('lists periods, a snapshot at a period and at a date', async () => {
    const periods = await api.get<{ items: Row[] }>('/api/periods');
    expect(periods.body.items.map((p) => p.name)).toEqual(expect.arrayContaining(['junior year at UMD']));
    const snap = await api.get<{ text: string; snapshot: Row }>('/api/snapshot?at=junior%20year');
    expect(snap.status).toBe(200);
    expect(snap.body.text.length).toBeGreaterThan(0);
    const dated = await api.get<{ text: string }>('/api/snapshot?at=2025-01-01&limit=5');
    expect(dated.status).toBe(200);
  });

  it('refuses an impossible date with 400 instead of reading 2024-13-01 as 13 January', async () => {
    for (const at of ['2024-13-01', '2024-02-30', '2024-00-10']) {
      const r = await api.get<ErrorBody>(`/api/snapshot?at=${at}`);
      expect(r.status, at).toBe(400);
      expect(r.body.error.message).toContain(`"${at}" is not a date PIE understands`);
    }
    const month = await api.get<{ text: string }>('/api/snapshot?at=2024-10');
    expect(month.status).toBe(200);
  });

  it('filters a snapshot by type whatever its case, and refuses an unknown type with 400 naming the known ones', async () => {
    type Snap = { snapshot: { type: string | null; total: number } };
    const lower = await api.get<Snap>('/api/snapshot?type=person');
    const camel = await api.get<Snap>('/api/snapshot?type=Person');
    expect(camel.status).toBe(200);
    expect(camel.body.snapshot).toMatchObject({ type: 'person', total: lower.body.snapshot.total });
    expect(lower.body.snapshot.total).toBeGreaterThan(0);
    const bogus = await api.get<ErrorBody>('/api/snapshot?type=bogus');
    expect(bogus.status).toBe(400);
    expect(bogus.body.error.code).toBe('INVALID_ARGUMENT');
    expect(bogus.body.error.message).toMatch(/^No entity has the type "bogus"; the types in this memory are .*person/);
  });

  it('diffs two periods', async () => {
    const r = await api.get<{ text: string; diff: Row }>('/api/diff?a=junior%20year&b=gap%20semester');
    expect(r.status).toBe(200);
    expect(r.body.text).toBeTruthy();
    expect(r.body.diff).toBeTypeOf('object');
  });

  it('answers an unknown period with 404 and known periods', async () => {
    const r = await api.get<ErrorBody>('/api/diff?a=my%20PhD&b=now');
    expect(r.status).toBe(404);
    expect(r.body.error.suggestions.length).toBeGreaterThan(0);
  });

  it('lists contradictions paginated', async () => {
    const r = await api.get<Page<Row>>('/api/contradictions?all=true&limit=1');
    expect(r.status).toBe(200);
    expect(r.body.total).toBeGreaterThanOrEqual(1);
    expect(r.body.items.length).toBeLessThanOrEqual(1);
  });
});

describe('HTTP API: validation and errors', () => {
  it.each([
    ['/api/search', 'q'],
    ['/api/entities?limit=0', 'limit'],
    ['/api/entities?limit=abc', 'limit'],
    ['/api/graph?entity=Tidepool&depth=9', 'depth'],
    ['/api/contradictions?all=maybe', 'all'],
  ])('%s → 400 naming %s', async (path, field) => {
    const r = await api.get<ErrorBody>(path);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('INVALID_ARGUMENT');
    expect(r.body.error.message).toContain(field);
  });

  it('rejects a body that is not JSON, and an empty question', async () => {
    expect((await api.post<ErrorBody>('/api/ask', '{nope')).status).toBe(400);
    const empty = await api.post<ErrorBody>('/api/ask', { question: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain('question');
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const r = await api.get<ErrorBody>('/api/nothing-here');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
  });

  it('refuses a foreign Host header (DNS rebinding) and a foreign Origin on writes', async () => {
    const res = await api.app.request('http://evil.example/api/periods');
    expect(res.status).toBe(403);
    const r = await api.post<ErrorBody>('/api/sleep', { dry_run: true }, { origin: 'http://evil.example' });
    expect(r.status).toBe(403);
  });
});

describe('HTTP API: chat and maintenance', () => {
  it('answers a question with the compiled context and sources when no model is configured', async () => {
    const r = await api.post<{ answer: unknown; context: string; sources: Row[] }>('/api/ask', {
      question: 'How has Tidepool changed?',
    });
    expect(r.status).toBe(200);
    expect(r.body.answer).toBeNull();
    expect(r.body.context).toContain('Tidepool');
    expect(r.body.sources.length).toBeGreaterThan(0);
  });

  it('routes chat: a question is answered, a statement is stored as an episode (once)', async () => {
    const q = await api.post<{ route: string; context: string }>('/api/chat', { message: 'What is Tidepool?' });
    expect(q.body.route).toBe('question');
    const s = await api.post<{ route: string; outcome: string; episodeId: string }>('/api/chat', {
      message: 'I started learning Rust with Maya Chen today.',
    });
    expect(s.status).toBe(200);
    expect(s.body.route).toBe('statement');
    expect(s.body.outcome).toBe('ingested');
    const episode = await api.get<{ turns: Row[] }>(`/api/episodes/${s.body.episodeId}`);
    expect(episode.body.turns[0]?.text).toContain('learning Rust');
    const again = await api.post<{ outcome: string }>('/api/chat', {
      message: 'I started learning Rust with Maya Chen today.',
    });
    expect(again.body.outcome).toBe('unchanged');
  });

  it('previews a sleep (dry run writes nothing), applies it, and undoes it', async () => {
    const before = await api.get<{ items: Row[] }>('/api/maintenance');
    const dry = await api.post<{ dryRun: boolean; phases: Row[]; journaled: number }>('/api/sleep', {});
    expect(dry.status).toBe(200);
    expect(dry.body.dryRun).toBe(true);
    expect(dry.body.phases.length).toBeGreaterThan(0);
    expect((await api.get<{ items: Row[] }>('/api/maintenance')).body.items).toHaveLength(before.body.items.length);
    const run = await api.post<{ runId: string; dryRun: boolean }>('/api/sleep', { dry_run: false, scope: 'quick' });
    expect(run.body.dryRun).toBe(false);
    const log = await api.get<{ items: Row[] }>('/api/maintenance');
    expect(log.body.items[0]?.id).toBe(run.body.runId);
    const undo = await api.post<{ runId: string }>('/api/undo', { run_id: run.body.runId });
    expect(undo.status).toBe(200);
    const twice = await api.post<ErrorBody>('/api/undo', { run_id: run.body.runId });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('CONFLICT');
  });

  it('reports health and status', async () => {
    const health = await api.get<{ entities: number; pending: Row }>('/api/health');
    expect(health.body.entities).toBeGreaterThan(0);
    const status = await api.get<{ readOnly: boolean; model: unknown; stats: Row }>('/api/status');
    expect(status.body.readOnly).toBe(false);
    expect(status.body.model).toBeNull();
    expect(status.body.stats.entities).toBeGreaterThan(0);
  });
});

describe('HTTP API: runs and backup', () => {
  it('lists ingest runs with batch counts and cost', async () => {
    const r = await api.get<{ items: { id: string; batches: { total: number }; costUsd: number }[] }>(
      '/api/ingest-runs',
    );
    expect(r.status).toBe(200);
    for (const run of r.body.items) {
      expect(run.batches.total).toBeGreaterThanOrEqual(0);
      expect(run.costUsd).toBeGreaterThanOrEqual(0);
    }
  });

  it('downloads a backup in the pie backup format', async () => {
    const res = await api.app.request('/api/backup');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="pie-backup-.*\.jsonl\.gz"/);
    const text = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
    const header = JSON.parse(text.split('\n')[0] ?? '{}') as { format?: string };
    expect(header.format).toBeTruthy();
    expect(text).toContain('Tidepool');
  });

  it('encrypts the download with the database key when there is one, and it restores with that key', async () => {
    const res = await backupResponse({ ...api.deps, backupKey: 'the database key' });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('PIEBAK1\n');
    expect(bytes.includes('Tidepool')).toBe(false);
    const file = join(tmpdir(), `pie-download-${process.pid}.jsonl.gz`);
    writeFileSync(file, bytes);
    try {
      const lines: string[] = [];
      for await (const line of readLines(file, 'the database key')) lines.push(line);
      expect(lines.join('\n')).toContain('Tidepool');
    } finally {
      rmSync(file, { force: true });
    }
  });
});

describe('HTTP API: OpenAPI', () => {
  it('describes every route with its parameters and bodies', async () => {
    const r = await api.get<{ openapi: string; paths: Record<string, Record<string, Row>> }>('/api/openapi.json');
    expect(r.body.openapi).toBe('3.1.0');
    for (const path of [
      '/api/backup',
      '/api/ingest-runs',
      '/api/search',
      '/api/entities/{name}',
      '/api/graph',
      '/api/diff',
      '/api/chat',
      '/api/sleep',
    ]) {
      expect(Object.keys(r.body.paths)).toContain(path);
    }
    const search = r.body.paths['/api/search']?.get as { parameters: Row[] };
    expect(search.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'q', in: 'query', required: true })]),
    );
    const chat = r.body.paths['/api/chat']?.post as { requestBody: { content: Record<string, { schema: Row }> } };
    expect(chat.requestBody.content['application/json']?.schema.properties).toHaveProperty('message');
    // A diff lists as many items per kind by default as pie diff and the web's Time view (20; it was 10 here).
    const diff = r.body.paths['/api/diff']?.get as { parameters: { name: string; schema: Row }[] };
    expect(diff.parameters.find((p) => p.name === 'limit')?.schema).toMatchObject({ default: DEFAULT_DIFF_LIMIT });
    expect(DEFAULT_DIFF_LIMIT).toBe(20);
  });
});
