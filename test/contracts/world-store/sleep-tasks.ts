import { describe, expect, it } from 'vitest';
import type { NewSleepTask } from '../../../src/ports/sleep-task-store.js';
import { DAY, T0, useFreshStore, type StoreFactory } from './fixtures.js';

function task(id: string, extra: Partial<NewSleepTask> = {}): NewSleepTask {
  return {
    id,
    action: 'resolve_contradiction',
    subjectIds: ['e1'],
    priority: 50,
    source: 'ingest',
    reason: 'a contradiction was recorded',
    createdAt: T0,
    ...extra,
  };
}

export function describeSleepTasks(factory: StoreFactory): void {
  describe('sleep tasks', () => {
    const store = useFreshStore(factory);

    it('keeps one open task per action and subject, and lists the pending ones by priority, then age', async () => {
      const s = store();
      expect(await s.tasks.leave(task('k1', { payload: { transitionId: 't1' } }))).toBe(true);
      expect(await s.tasks.leave(task('k2', { createdAt: T0 + 1 }))).toBe(false); // same action and subject
      expect(await s.tasks.leave(task('k3', { subjectIds: ['e2'], priority: 80, createdAt: T0 + 2 }))).toBe(true);
      expect(
        await s.tasks.leave(task('k4', { action: 'merge_duplicates', subjectIds: ['e2', 'e1'], priority: 140 })),
      ).toBe(true);
      // the key ignores subject order
      expect(await s.tasks.leave(task('k5', { action: 'merge_duplicates', subjectIds: ['e1', 'e2'] }))).toBe(false);
      const pending = await s.tasks.list();
      expect(pending.map((t) => [t.id, t.priority])).toEqual([
        ['k4', 100], // clamped to 1–100
        ['k3', 80],
        ['k1', 50],
      ]);
      expect(pending[2]).toEqual({
        id: 'k1',
        action: 'resolve_contradiction',
        subjectIds: ['e1'],
        payload: { transitionId: 't1' },
        priority: 50,
        status: 'pending',
        source: 'ingest',
        reason: 'a contradiction was recorded',
        attempts: 0,
        result: null,
        dedupeKey: 'resolve_contradiction:e1',
        createdAt: T0,
        updatedAt: T0,
        completedAt: null,
        expiresAt: null,
      });
      expect(await s.tasks.count()).toBe(3);
      expect(await s.tasks.list({ limit: 1 })).toHaveLength(1);
    });

    it('allows a new task once the open one is finished, and finds finished tasks past their expiry', async () => {
      const s = store();
      await s.tasks.leave(task('k1'));
      const row = await s.upkeep.getRow({ table: 'sleep_tasks', id: 'k1' });
      expect(row).not.toBeNull();
      await s.upkeep.putRow({
        table: 'sleep_tasks',
        id: 'k1',
        row: { ...row, status: 'completed', completed_at: T0 + DAY, expires_at: T0 + 15 * DAY, result: 'resolved' },
      });
      expect(await s.tasks.leave(task('k2', { createdAt: T0 + 2 * DAY }))).toBe(true);
      await s.tasks.leave(task('k3', { subjectIds: ['e9'] }));
      expect(await s.tasks.count({ statuses: ['pending'] })).toBe(2);
      expect(await s.tasks.count({ statuses: ['completed'] })).toBe(1);
      expect((await s.tasks.list({ statuses: ['completed', 'pending'] })).map((t) => t.id).sort()).toEqual([
        'k1',
        'k2',
        'k3',
      ]);
      expect(await s.tasks.expired({ now: T0 + 15 * DAY, limit: 10 })).toEqual([]);
      expect((await s.tasks.expired({ now: T0 + 16 * DAY, limit: 10 })).map((t) => t.id)).toEqual(['k1']);
    });
  });
}
