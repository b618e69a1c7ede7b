import { describe, expect, it } from 'vitest';
import { PHASES } from '../../src/metabolism/phases.js';
import { sleepPhaseNames } from '../../src/metabolism/plan-reports.js';
import { apiPerTest, openApi, previewLines } from './harness.js';

/**
 * POST /api/sleep/preview: the sleep preview as JSON lines, phase by phase (what the web Maintenance view shows as it
 * arrives). The lines are the JSON dry run's report, its previewId the same, and Apply takes it: applied exactly as
 * previewed, refused (409) once the world changed.
 */
interface Phase {
  name: string;
  status: string;
  changes: number;
  details?: Record<string, unknown>;
  items: { text: string; entities: { id: string; name: string }[] }[];
}
interface Line {
  type: 'start' | 'phase' | 'done' | 'error';
  phases?: string[];
  scope?: string;
  index?: number;
  phase?: Phase;
  previewId?: string;
  now?: string;
  error?: { code: string; message: string };
}
interface SleepOut {
  now: string;
  previewId: string | null;
  phases: Phase[];
}

const fx = apiPerTest();

/** The streamed answer, line by line as it is read, with its response headers. */
const preview = (body: unknown, headers: Record<string, string> = {}) => previewLines<Line>(fx.api, body, headers);

describe('POST /api/sleep/preview', () => {
  it('streams start, each phase in report order, then done: the JSON dry run, line by line', async () => {
    const { res, lines } = await preview({ scope: 'full' }, { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    // Never compressed (a gzip stream would hold the lines back until it fills a block).
    expect(res.headers.get('content-encoding')).toBeNull();
    const names = sleepPhaseNames(PHASES);
    expect(lines[0]).toMatchObject({ type: 'start', scope: 'full', phases: names });
    const phases = lines.filter((l) => l.type === 'phase');
    expect(phases.map((l) => l.index)).toEqual(names.map((_n, i) => i));
    expect(phases.map((l) => l.phase?.name)).toEqual(names);
    expect(lines.map((l) => l.type)).toEqual(['start', ...names.map(() => 'phase'), 'done']);

    const json = await fx.api.post<SleepOut>('/api/sleep', { scope: 'full', dry_run: true });
    expect(phases.map((l) => l.phase)).toEqual(json.body.phases);
    const done = lines.at(-1);
    expect(done?.previewId).toBe(json.body.previewId);
    expect(done?.now).toBe(json.body.now);
  });

  it('names the entities each phase is about (the tiers phase lists who moves, with names)', async () => {
    const { lines } = await preview({ scope: 'quick' });
    const tiers = lines.find((l) => l.phase?.name === 'tiers')?.phase;
    expect(tiers?.changes).toBeGreaterThan(0);
    const named = tiers?.items.flatMap((i) => i.entities) ?? [];
    expect(named.length).toBeGreaterThan(0);
    for (const e of named) expect(e.name).not.toBe(e.id);
  });

  it('Apply with the streamed previewId applies that plan; a world changed since is refused with 409', async () => {
    const first = (await preview({ scope: 'quick' })).lines;
    const previewId = first.at(-1)?.previewId;
    expect(previewId).toMatch(/^\d+\.[0-9a-f]{24}$/);
    const applied = await fx.api.post<SleepOut>('/api/sleep', {
      scope: 'quick',
      dry_run: false,
      preview_id: previewId,
    });
    expect(applied.status).toBe(200);
    const planned = first.filter((l) => l.type === 'phase').map((l) => [l.phase?.name, l.phase?.changes]);
    expect(applied.body.phases.map((p) => [p.name, p.changes])).toEqual(planned);

    const again = (await preview({ scope: 'quick' })).lines.at(-1)?.previewId;
    expect((await fx.api.post('/api/episodes', { content: 'I adopted a cat named Miso.' })).status).toBe(200);
    const refused = await fx.api.post<{ error: { code: string } }>('/api/sleep', {
      scope: 'quick',
      dry_run: false,
      preview_id: again,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
  });

  it('a bad scope is a 400 JSON error before anything streams', async () => {
    const { res, text } = await preview({ scope: 'nap' });
    expect(res.status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });

  it('works on a read-only server, and the OpenAPI document describes the lines', async () => {
    await fx.api.close();
    fx.api = await openApi({ db: fx.world.db, readOnly: true });
    const { lines } = await preview({ scope: 'daydream' });
    expect(lines.at(-1)?.type).toBe('done');
    const doc = await fx.api.get<{ paths: Record<string, { post: { responses: Record<string, unknown> } }> }>(
      '/api/openapi.json',
    );
    expect(doc.body.paths['/api/sleep/preview']?.post.responses['200']).toMatchObject({
      content: { 'application/x-ndjson': {} },
    });
  });
});
