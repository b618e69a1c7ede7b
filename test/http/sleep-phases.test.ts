import { describe, expect, it } from 'vitest';
import { apiPerTest } from './harness.js';

/**
 * Each phase of a sleep says what it did, not only how much: the tiers phase names the entities that move and
 * where, and the log keeps the run's scope, changes and wall time (the web Maintenance view folds them under each
 * phase and in the log).
 */
interface Item {
  text: string;
  entities: { id: string; name: string }[];
}
interface SleepOut {
  phases: { name: string; changes: number; items: Item[] }[];
}
interface Log {
  items: { id: string; report: { scope?: string; durationMs?: number; phases?: { changes: number }[] } }[];
}

const fx = apiPerTest();

describe('what each sleep phase did', () => {
  it('lists the entities a tier move names, by name, one line per move, covering the phase count', async () => {
    const r = await fx.api.post<SleepOut>('/api/sleep', { scope: 'full', dry_run: true });
    expect(r.status).toBe(200);
    const tiers = r.body.phases.find((p) => p.name === 'tiers');
    expect(tiers?.changes).toBeGreaterThan(0);
    const listed = tiers?.items.flatMap((i) => i.entities) ?? [];
    expect(listed).toHaveLength(tiers?.changes ?? -1);
    for (const item of tiers?.items ?? []) expect(item.text).toMatch(/^\w+ → \w+ \(\d+\):/);
    // Names, not ids: every listed entity resolves to the entity the fixture holds.
    const names = (await fx.api.get<{ items: { name: string }[] }>('/api/entities', { limit: '500' })).body.items.map(
      (e) => e.name,
    );
    for (const e of listed) expect(names).toContain(e.name);
  });

  it("the log keeps a run's scope, its phases' changes and its wall time", async () => {
    const preview = await fx.api.post<SleepOut & { previewId: string }>('/api/sleep', {
      scope: 'quick',
      dry_run: true,
    });
    const applied = await fx.api.post<SleepOut & { runId: string }>('/api/sleep', {
      scope: 'quick',
      dry_run: false,
      preview_id: preview.body.previewId,
    });
    expect(applied.status).toBe(200);
    const log = await fx.api.get<Log>('/api/maintenance', { limit: '5' });
    const entry = log.body.items.find((e) => e.id === applied.body.runId);
    expect(entry?.report.scope).toBe('quick');
    expect(entry?.report.durationMs).toBeGreaterThanOrEqual(0);
    expect(entry?.report.phases?.map((p) => p.changes)).toEqual(applied.body.phases.map((p) => p.changes));
  });
});
