import { describe, expect, it } from 'vitest';
import { T0, useFreshStore, type StoreFactory } from './fixtures.js';

function row(
  id: string,
  kind: string,
  at: number,
  runId: string | null = 'sleep-1',
): Record<string, string | number | null> {
  return {
    id,
    kind,
    text: `insight ${id}`,
    evidence: JSON.stringify(['e1', 'e2']),
    confidence: 0.6,
    status: 'new',
    run_id: runId,
    created_at: at,
  };
}

export function describeInsights(factory: StoreFactory): void {
  describe('insights', () => {
    const store = useFreshStore(factory);

    it('reads the rows the sleep cycle writes, newest first, by kind and run', async () => {
      const s = store();
      expect(await s.insights.list()).toEqual([]);
      await s.upkeep.putRow({ table: 'insights', id: 'i1', row: row('i1', 'deep', T0) });
      await s.upkeep.putRow({ table: 'insights', id: 'i2', row: row('i2', 'mega', T0 + 1, 'sleep-2') });
      await s.upkeep.putRow({ table: 'insights', id: 'i3', row: row('i3', 'deep', T0 + 1, null) });
      expect((await s.insights.list()).map((i) => i.id)).toEqual(['i3', 'i2', 'i1']);
      expect(await s.insights.list({ kind: 'deep', limit: 1 })).toEqual([
        {
          id: 'i3',
          kind: 'deep',
          text: 'insight i3',
          evidence: ['e1', 'e2'],
          confidence: 0.6,
          status: 'new',
          runId: null,
          createdAt: T0 + 1,
        },
      ]);
      expect((await s.insights.list({ runId: 'sleep-2' })).map((i) => i.id)).toEqual(['i2']);
      expect(await s.insights.count()).toBe(3);
      expect(await s.insights.count({ kind: 'deep' })).toBe(2);
      await s.upkeep.putRow({ table: 'insights', id: 'i1', row: null });
      expect(await s.insights.count({ kind: 'deep' })).toBe(1);
    });
  });
}
