import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { withLease } from '../../src/ingest/extraction-lease.js';
import { SLEEP_LEASE } from '../../src/ingest/lease-rules.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { fixtureWorld, openApi, type Api } from './harness.js';

/**
 * A sleep applied through the HTTP API while another process sleeps on the same database is refused with 409 and
 * one sentence, and writes nothing; a preview (which takes no lease) still answers.
 */
interface ErrorBody {
  error: { code: string; message: string };
}

let world: Awaited<ReturnType<typeof fixtureWorld>>;
let api: Api;
let other: WorldStore;
beforeEach(async () => {
  world = await fixtureWorld();
  api = await openApi({ db: world.db });
  other = await openSqliteStore({ path: world.db });
});
afterEach(async () => {
  await other.close();
  await api.close();
  world.cleanup();
});

describe('POST /api/sleep while another process sleeps', () => {
  it('refuses to apply (409, one sentence, nothing written) and still previews', async () => {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = (): void => undefined;
    const taken = new Promise<void>((resolve) => (holding = resolve));
    const lease = withLease(other, SLEEP_LEASE, { purpose: 'sleep via a test', waitMs: 0 }, async () => {
      holding();
      await held;
    });
    await taken;
    try {
      const logBefore = await api.get<{ items: unknown[] }>('/api/maintenance', { limit: '50' });
      const preview = await api.post<{ previewId: string }>('/api/sleep', { scope: 'quick', dry_run: true });
      expect(preview.status).toBe(200);
      const applied = await api.post<ErrorBody>('/api/sleep', {
        scope: 'quick',
        dry_run: false,
        preview_id: preview.body.previewId,
      });
      expect(applied.status).toBe(409);
      expect(applied.body.error.code).toBe('CONFLICT');
      expect(applied.body.error.message).toMatch(/^Another sleep is running on this database: sleep via a test/);
      expect(applied.body.error.message.split(/(?<=\.) /)).toHaveLength(1);
      const logAfter = await api.get<{ items: unknown[] }>('/api/maintenance', { limit: '50' });
      expect(logAfter.body.items).toEqual(logBefore.body.items);
    } finally {
      release();
      await lease;
    }
    // Once the other sleep is over, the same request applies.
    const preview = await api.post<{ previewId: string }>('/api/sleep', { scope: 'quick', dry_run: true });
    const applied = await api.post('/api/sleep', {
      scope: 'quick',
      dry_run: false,
      preview_id: preview.body.previewId,
    });
    expect(applied.status).toBe(200);
  });
});
