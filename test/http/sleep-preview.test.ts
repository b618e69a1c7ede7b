import { describe, expect, it } from 'vitest';
import { previewInstant, sleepPreviewId } from '../../src/metabolism/preview-id.js';
import { apiPerTest } from './harness.js';

/**
 * The web Maintenance view applied the scope selected at click time, not the previewed plan (preview full, switch
 * to daydream, Apply ran daydream). Applying now carries the preview's identity; the server replans at the
 * preview's instant and refuses (409) when the scope or the world changed since.
 */
interface SleepOut {
  runId: string;
  scope: string;
  dryRun: boolean;
  now: string;
  previewId: string | null;
  phases: { name: string; status: string; changes: number }[];
}
interface ErrorBody {
  error: { code: string; message: string };
}

const fx = apiPerTest();

describe('applying a sleep preview', () => {
  it('applies exactly the previewed plan, at the preview instant', async () => {
    const preview = await fx.api.post<SleepOut>('/api/sleep', { scope: 'full', dry_run: true });
    expect(preview.status).toBe(200);
    expect(preview.body.previewId).toMatch(/^\d+\.[0-9a-f]{24}$/);
    const applied = await fx.api.post<SleepOut>('/api/sleep', {
      scope: 'full',
      dry_run: false,
      preview_id: preview.body.previewId,
    });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ dryRun: false, scope: 'full', now: preview.body.now, previewId: null });
    expect(applied.body.phases.map((p) => [p.name, p.changes])).toEqual(
      preview.body.phases.map((p) => [p.name, p.changes]),
    );
  });

  it('refuses a preview of other options (preview full, apply daydream) and changes nothing', async () => {
    const preview = await fx.api.post<SleepOut>('/api/sleep', { scope: 'full', dry_run: true });
    const before = await fx.api.get<{ items: unknown[] }>('/api/maintenance');
    const refused = await fx.api.post<ErrorBody>('/api/sleep', {
      scope: 'daydream',
      dry_run: false,
      preview_id: preview.body.previewId,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'CONFLICT',
      message:
        'The world or the sleep options changed since this preview; preview the sleep again and apply that preview.',
      suggestions: [],
    });
    expect((await fx.api.get<{ items: unknown[] }>('/api/maintenance')).body.items).toEqual(before.body.items);
  });

  it('refuses a preview of a world that changed since', async () => {
    const preview = await fx.api.post<SleepOut>('/api/sleep', { scope: 'quick', dry_run: true });
    expect((await fx.api.post('/api/episodes', { content: 'I adopted a cat named Miso.' })).status).toBe(200);
    const refused = await fx.api.post<ErrorBody>('/api/sleep', {
      scope: 'quick',
      dry_run: false,
      preview_id: preview.body.previewId,
    });
    expect(refused.status).toBe(409);
  });

  it('a malformed preview id is a 400 with one sentence', async () => {
    const r = await fx.api.post<ErrorBody>('/api/sleep', { scope: 'quick', dry_run: false, preview_id: 'abc' });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe(
      '"abc" is not a sleep preview id; preview the sleep (dry_run) and pass its preview_id.',
    );
  });
});

describe('preview identity', () => {
  const stats = { entities: 3, episodes: 2, transitions: 4, relationships: 1 } as never;
  const report = { scope: 'full' as const, now: 1_700_000_000_000, phases: [] };
  it('carries its instant and changes with the scope, the plan or the world', () => {
    const id = sleepPreviewId(report, stats);
    expect(previewInstant(id)).toBe(report.now);
    expect(sleepPreviewId(report, stats)).toBe(id);
    expect(sleepPreviewId({ ...report, scope: 'quick' }, stats)).not.toBe(id);
    expect(sleepPreviewId({ ...report, phases: [{ name: 'x', status: 'planned', changes: 1 }] }, stats)).not.toBe(id);
    expect(sleepPreviewId(report, { ...(stats as object), entities: 4 } as never)).not.toBe(id);
  });
});
