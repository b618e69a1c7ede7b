import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ROUTES } from '../../src/serve/http/app.js';
import { pie, SAMPLE, tempDir } from '../helpers/cli.js';
import { NOW, openApi, type Api } from './harness.js';

/**
 * The life timeline routes through `app.request()` on the bundled sample ingested offline (real conversations with
 * turns): bands, lanes and capped marks, the filters and their errors, a change's source turn, an entity's attribute
 * history; every answer parsed with the route's declared response schema (the one OpenAPI is written from).
 */

interface Mark {
  id: string;
  kind: string;
  time: string;
  summary: string;
  attributes: string[];
  contradiction: boolean;
  unresolved: boolean;
}
interface Lane {
  entity: { name: string; type: string; importance: number };
  marks: Mark[];
  marksTotal: number;
  contradictions: number;
}
interface Timeline {
  start: string;
  end: string;
  periods: { name: string; start: string; end: string | null; row: number }[];
  period: { name: string } | null;
  lanes: Lane[];
  attributes: { name: string; count: number }[];
  types: { type: string; count: number }[];
}

let api: Api;
let cleanup: () => void;

function parse<T>(path: string, body: unknown): T {
  const schema: z.ZodType | undefined = ROUTES.find((r) => r.path === path)?.response;
  if (!schema) throw new Error(`${path} declares no response schema`);
  return schema.parse(body) as T;
}

async function timeline(query = ''): Promise<Timeline> {
  const r = await api.get(`/api/timeline${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return parse<Timeline>('/api/timeline', r.body);
}

beforeAll(async () => {
  const tmp = tempDir('pie-http-timeline-');
  cleanup = tmp.cleanup;
  const db = join(tmp.dir, 'pie.db');
  const ingested = await pie(['--db', db, '--tz', 'UTC', '--now', NOW, 'ingest', SAMPLE, '--extractor', 'offline']);
  expect(ingested.code, ingested.stderr).toBe(0);
  api = await openApi({ db });
}, 120_000);

afterAll(async () => {
  await api?.close();
  cleanup?.();
});

describe('GET /api/timeline', () => {
  it('answers the periods as bands and the most important entities as lanes, most important first', async () => {
    const t = await timeline('?limit=8');
    expect(t.periods.map((p) => [p.name, p.row])).toEqual([
      ['junior year at UMD', 0],
      ['gap semester in San Francisco', 0],
    ]);
    expect(t.lanes).toHaveLength(8);
    const importance = t.lanes.map((l) => l.entity.importance);
    expect(importance).toEqual([...importance].sort((a, b) => b - a));
    expect(t.lanes.some((l) => l.entity.type === 'period')).toBe(false);
    expect(t.types.some((x) => x.type === 'period')).toBe(false);
    expect(Date.parse(t.start)).toBeLessThanOrEqual(Date.parse(t.periods[0]?.start ?? ''));
    // The sample has more than 30 entities besides its periods: the default fills 30 lanes.
    expect((await timeline()).lanes).toHaveLength(30);
  });

  it("marks Tidepool's changes in time order, the pivot an unresolved contradiction", async () => {
    const tidepool = (await timeline()).lanes.find((l) => l.entity.name === 'Tidepool');
    const marks = tidepool?.marks ?? [];
    expect(marks[0]?.kind).toBe('creation');
    expect(marks.map((m) => m.time)).toEqual([...marks.map((m) => m.time)].sort());
    const pivot = marks.find((m) => m.contradiction);
    expect(pivot).toMatchObject({ kind: 'contradiction', unresolved: true, attributes: ['focus'] });
    expect(tidepool?.contradictions).toBe(1);
  });

  it('caps the marks per lane and keeps the contradictions', async () => {
    const t = await timeline('?marks=2');
    const tidepool = t.lanes.find((l) => l.entity.name === 'Tidepool');
    expect(tidepool?.marks).toHaveLength(2);
    expect(tidepool?.marksTotal).toBeGreaterThan(10);
    expect(tidepool?.marks.some((m) => m.contradiction)).toBe(true);
  });

  it('filters by kind, attribute and period', async () => {
    const tools = await timeline('?type=tool');
    expect(tools.lanes.length).toBeGreaterThan(3);
    expect(tools.lanes.every((l) => l.entity.type === 'tool')).toBe(true);

    const stage = await timeline('?attribute=stage');
    expect(stage.lanes.map((l) => l.entity.name)).toContain('Tidepool');
    expect(stage.lanes.flatMap((l) => l.marks).every((m) => m.attributes.includes('stage'))).toBe(true);

    const gap = await timeline(`?period=${encodeURIComponent('SF gap semester')}`);
    expect(gap.period?.name).toBe('gap semester in San Francisco');
    const marks = gap.lanes.flatMap((l) => l.marks);
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((m) => m.time >= gap.start && m.time < gap.end)).toBe(true);
  });

  it('refuses an unknown period with suggestions, and bad numbers with the field named', async () => {
    const r = await api.get<{ error: { code: string; suggestions: string[] } }>('/api/timeline?period=my%20PhD');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
    expect(r.body.error.suggestions).toContain('gap semester in San Francisco');
    const bad = await api.get<{ error: { message: string } }>('/api/timeline?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/limit/);
  });
});

describe('GET /api/timeline/marks/{id} and /api/entities/{name}/attributes', () => {
  it("previews a change with its conversation's matching turn", async () => {
    const pivot = (await timeline()).lanes
      .find((l) => l.entity.name === 'Tidepool')
      ?.marks.find((m) => m.contradiction);
    const r = await api.get(`/api/timeline/marks/${pivot?.id ?? ''}`);
    expect(r.status).toBe(200);
    const s = parse<{
      entity: { name: string };
      to: Record<string, unknown>;
      episode: { id: string; title: string } | null;
      turn: { seq: number; role: string; text: string } | null;
    }>('/api/timeline/marks/{id}', r.body);
    expect(s.entity.name).toBe('Tidepool');
    expect(s.to).toHaveProperty('focus');
    expect(s.episode?.title.length).toBeGreaterThan(0);
    expect(s.turn?.text.toLowerCase()).toContain('tidepool');
    // The turn is one of the conversation's own.
    const episode = await api.get<{ turns: { seq: number; text: string }[] }>(`/api/episodes/${s.episode?.id ?? ''}`);
    const turn = episode.body.turns.find((x) => x.seq === s.turn?.seq);
    expect(turn?.text.replace(/\s+/g, ' ')).toContain(s.turn?.text.replace(/^… | …$/g, '').slice(0, 60));
    expect((await api.get('/api/timeline/marks/nope')).status).toBe(404);
  });

  it("answers each attribute's values over time, the current one open", async () => {
    const r = await api.get('/api/entities/Tidepool/attributes');
    expect(r.status).toBe(200);
    const h = parse<{ lanes: { attribute: string; values: { value: unknown; to: string | null }[] }[] }>(
      '/api/entities/{name}/attributes',
      r.body,
    );
    const stage = h.lanes.find((l) => l.attribute === 'stage');
    expect(stage?.values.length).toBeGreaterThan(2);
    expect(stage?.values.filter((v) => v.to === null)).toHaveLength(1);
    expect(stage?.values.at(-1)?.to).toBeNull();
    expect((await api.get('/api/entities/Nobody%20Here/attributes')).status).toBe(404);
  });

  it('lists the three routes in the OpenAPI document with their response schemas', async () => {
    const r = await api.get<{ paths: Record<string, { get?: { responses: Record<string, unknown> } }> }>(
      '/api/openapi.json',
    );
    for (const path of ['/api/timeline', '/api/timeline/marks/{id}', '/api/entities/{name}/attributes']) {
      const ok = r.body.paths[path]?.get?.responses['200'] as {
        content: { 'application/json': { schema: { properties?: Record<string, unknown> } } };
      };
      expect(Object.keys(ok.content['application/json'].schema.properties ?? {}).length, path).toBeGreaterThan(2);
    }
  });
});
