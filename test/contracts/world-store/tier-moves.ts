import { describe, expect, it } from 'vitest';
import type { Tier } from '../../../src/domain/world.js';
import type { EntityPatch, WorldStore } from '../../../src/ports/world-store.js';
import { DAY, T0, addEntity, useFreshStore, type StoreFactory } from './fixtures.js';

/** A maintenance run as the sleep cycle records one: its log entry, then each row changed through the journal. */
class Run {
  private seq = 0;

  constructor(
    private readonly store: WorldStore,
    readonly id: string,
    readonly at: number,
  ) {}

  static async start(store: WorldStore, id: string, at: number, status = 'completed'): Promise<Run> {
    await store.maintenance.append({ id, kind: 'sleep', startedAt: at, finishedAt: at, status, report: {} });
    return new Run(store, id, at);
  }

  /** Updates the entity row and journals its stored images before and after, as RunJournal does. */
  async change(entityId: string, patch: Omit<EntityPatch, 'updatedAt'>): Promise<void> {
    const before = await this.store.upkeep.getRow({ table: 'entities', id: entityId });
    await this.store.entities.update(entityId, { ...patch, updatedAt: this.at });
    const after = await this.store.upkeep.getRow({ table: 'entities', id: entityId });
    await this.store.journal.append({
      runId: this.id,
      seq: this.seq++,
      table: 'entities',
      rowId: entityId,
      op: 'update',
      before,
      after,
      at: this.at,
    });
  }

  async tier(entityId: string, tier: Tier): Promise<void> {
    await this.change(entityId, { tier });
  }
}

export function describeTierMoves(factory: StoreFactory): void {
  describe('journal.tierMoves and entities.types', () => {
    const store = useFreshStore(factory);

    it("lists the tier moves of completed runs in recording order, each at its run's clock", async () => {
      const s = store();
      for (const id of ['e1', 'e2', 'e3', 'e4']) await addEntity(s, id);

      const a = await Run.start(s, 'a', T0 + 10 * DAY);
      await a.tier('e1', 'summarized');
      await a.change('e2', { importance: 0.9 }); // not a tier move
      await a.tier('e3', 'archived');
      // Other journal rows of the run: an inserted entity, a deleted one, another table; none is a tier move.
      const other = { runId: 'a', at: a.at } as const;
      await s.journal.append({
        ...other,
        seq: 10,
        table: 'entities',
        rowId: 'e9',
        op: 'insert',
        before: null,
        after: { id: 'e9', tier: 'active' },
      });
      await s.journal.append({
        ...other,
        seq: 11,
        table: 'entities',
        rowId: 'e8',
        op: 'delete',
        before: { id: 'e8', tier: 'summarized' },
        after: null,
      });
      await s.journal.append({
        ...other,
        seq: 12,
        table: 'sleep_tasks',
        rowId: 't1',
        op: 'update',
        before: { id: 't1', tier: 'active' },
        after: { id: 't1', tier: 'archived' },
      });

      // Undone and failed runs are not in effect.
      const undone = await Run.start(s, 'undone', T0 + 40 * DAY);
      await undone.tier('e4', 'archived');
      await s.maintenance.update({ id: 'undone', finishedAt: undone.at, status: 'undone', report: {} });
      await Run.start(s, 'failed', T0 + 50 * DAY, 'failed');

      // Recorded after `a` with an earlier clock (--now in the past): listed after a's moves, at its own clock.
      const past = await Run.start(s, 'past', T0 + 5 * DAY);
      await past.tier('e1', 'archived');
      await past.tier('e3', 'active');
      await past.tier('e3', 'summarized');

      expect(await s.journal.tierMoves()).toEqual([
        { entityId: 'e1', from: 'active', to: 'summarized', at: T0 + 10 * DAY },
        { entityId: 'e3', from: 'active', to: 'archived', at: T0 + 10 * DAY },
        { entityId: 'e1', from: 'summarized', to: 'archived', at: T0 + 5 * DAY },
        { entityId: 'e3', from: 'archived', to: 'active', at: T0 + 5 * DAY },
        { entityId: 'e3', from: 'active', to: 'summarized', at: T0 + 5 * DAY },
      ]);
    });

    it('lists no tier moves in a store without maintenance runs, and after a run is undone', async () => {
      const s = store();
      expect(await s.journal.tierMoves()).toEqual([]);
      await addEntity(s, 'e1');
      const run = await Run.start(s, 'r', T0 + DAY);
      await run.tier('e1', 'summarized');
      expect(await s.journal.tierMoves()).toEqual([{ entityId: 'e1', from: 'active', to: 'summarized', at: T0 + DAY }]);
      await s.maintenance.update({ id: 'r', finishedAt: T0 + DAY, status: 'undone', report: {} });
      expect(await s.journal.tierMoves()).toEqual([]);
    });

    it('lists every stored entity type once, in code-point order', async () => {
      const s = store();
      expect(await s.entities.types()).toEqual([]);
      await addEntity(s, 'p1', { type: 'person' });
      await addEntity(s, 't1', { type: 'tool' });
      await addEntity(s, 't2', { type: 'tool' });
      await addEntity(s, 'c1', { type: 'clinical_trial' });
      await addEntity(s, 'k1', { type: '$ConceptType' });
      await addEntity(s, 'a1', { type: 'tool', name: 'archived one' });
      await s.entities.update('a1', { tier: 'archived', updatedAt: T0 });
      expect(await s.entities.types()).toEqual(['$ConceptType', 'clinical_trial', 'person', 'tool']);
    });
  });
}
