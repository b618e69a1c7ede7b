import { describe, expect, it } from 'vitest';
import type { Observation, Summary } from '../../../src/ports/pyramid-store.js';
import { DAY, T0, useFreshStore, type StoreFactory } from './fixtures.js';

const obs = (id: string, overrides: Partial<Observation> = {}): Observation => ({
  id,
  text: `observation ${id}`,
  importance: 5,
  modelId: null,
  entityId: null,
  episodeId: null,
  eventTime: T0,
  recordedAt: T0,
  source: 'manual',
  ...overrides,
});

const summary = (
  id: string,
  modelId: string,
  tier: number,
  start: number,
  overrides: Partial<Summary> = {},
): Summary => ({
  id,
  modelId,
  tier,
  start,
  end: start + DAY * 3 ** tier,
  text: `[5] summary ${id}`,
  sourceIds: ['a'],
  createdAt: T0,
  method: 'deterministic',
  sourceHash: `h-${id}`,
  ...overrides,
});

export function describePyramidStore(factory: StoreFactory): void {
  describe('pyramid (observations, mental models, summaries)', () => {
    const store = useFreshStore(factory);

    it('stores observations once per id, filters them by model, assignment and time, and counts them', async () => {
      const p = store().pyramid;
      expect(await p.addObservation(obs('o1', { eventTime: T0 + 2, importance: 7, source: 'world' }))).toBe(true);
      expect(await p.addObservation(obs('o1', { text: 'changed' }))).toBe(false);
      await p.addObservation(obs('o2', { eventTime: T0 + 1 }));
      await p.addObservation(obs('o3', { eventTime: T0 + DAY }));
      expect((await p.observations()).map((o) => o.id)).toEqual(['o2', 'o1', 'o3']);
      expect(await p.observations({ order: 'desc', limit: 1 })).toEqual([obs('o3', { eventTime: T0 + DAY })]);
      expect((await p.observations({ since: T0 + 2, until: T0 + DAY })).map((o) => o.id)).toEqual(['o1']);
      const user = await p.putModel({ id: 'm-user', name: 'user', description: '', isBase: true, updatedAt: T0 });
      await p.assign({ observationIds: ['o1', 'o3'], modelId: user.id });
      expect((await p.observations({ modelId: 'm-user' })).map((o) => [o.id, o.importance, o.source])).toEqual([
        ['o1', 7, 'world'],
        ['o3', 5, 'manual'],
      ]);
      expect((await p.observations({ unassigned: true })).map((o) => o.id)).toEqual(['o2']);
      expect(await p.countObservations()).toBe(3);
      expect(await p.countObservations({ unassigned: true })).toBe(1);
    });

    it('keeps a model id when the name exists, updates its description, lists models by name', async () => {
      const p = store().pyramid;
      await p.putModel({ id: 'm1', name: 'user', description: '', isBase: true, updatedAt: T0 });
      const again = await p.putModel({
        id: 'other',
        name: 'user',
        description: 'lives in Austin',
        isBase: true,
        updatedAt: T0 + 1,
      });
      expect(again).toEqual({
        id: 'm1',
        name: 'user',
        description: 'lives in Austin',
        isBase: true,
        updatedAt: T0 + 1,
      });
      await p.putModel({ id: 'm2', name: 'maya-chen', description: '', isBase: false, updatedAt: T0 });
      expect((await p.models()).map((m) => m.name)).toEqual(['maya-chen', 'user']);
      expect(await p.model('nobody')).toBeNull();
    });

    it('replaces the summary of (model, tier, start), and returns the latest per tier', async () => {
      const p = store().pyramid;
      await p.putModel({ id: 'm1', name: 'user', description: '', isBase: true, updatedAt: T0 });
      await p.putModel({ id: 'm2', name: 'system', description: '', isBase: true, updatedAt: T0 });
      for (let d = 0; d < 5; d += 1) await p.putSummary(summary(`s${d}`, 'm1', 0, T0 + d * DAY));
      await p.putSummary(summary('t1', 'm1', 1, T0));
      await p.putSummary(summary('x', 'm2', 0, T0));
      await p.putSummary(summary('s4-new', 'm1', 0, T0 + 4 * DAY, { text: '[9] replaced', method: 'llm:fake:x' }));
      const tier0 = await p.summaries({ modelId: 'm1', tier: 0 });
      expect(tier0.map((s) => s.id)).toEqual(['s0', 's1', 's2', 's3', 's4']);
      expect(tier0[4]).toEqual(
        summary('s4', 'm1', 0, T0 + 4 * DAY, { text: '[9] replaced', method: 'llm:fake:x', sourceHash: 'h-s4-new' }),
      );
      expect((await p.recentByTier({ modelId: 'm1', perTier: 3 })).map((s) => s.id)).toEqual(['s4', 's3', 's2', 't1']);
      expect((await p.summaries({ tier: 0, order: 'desc', limit: 2 })).map((s) => s.id)).toEqual(['s4', 's3']);
    });
  });
}
