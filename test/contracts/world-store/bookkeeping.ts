import { describe, expect, it } from 'vitest';
import type { IngestBatch } from '../../../src/ports/world-store.js';
import {
  DAY,
  T0,
  addEntity,
  addEpisode,
  fact,
  relationship,
  transition,
  turn,
  useFreshStore,
  type StoreFactory,
} from './fixtures.js';

function batch(key: string, overrides: Partial<IngestBatch> = {}): IngestBatch {
  return {
    runId: 'run-1',
    key,
    status: 'pending',
    episodeIds: [],
    tokensIn: 0,
    tokensOut: 0,
    costUsd: 0,
    error: null,
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}

export function describeBookkeeping(factory: StoreFactory): void {
  describe('ingest runs and batches', () => {
    const store = useFreshStore(factory);

    it('starts, finishes, gets and lists runs newest first', async () => {
      await store().runs.start({
        id: 'run-1',
        startedAt: T0,
        status: 'running',
        source: 'x.json',
        options: { dry: false },
      });
      await store().runs.start({
        id: 'run-2',
        startedAt: T0 + DAY,
        status: 'running',
        source: 'y.json',
        options: {},
        counters: { batches: 0 },
      });
      expect(await store().runs.get('run-1')).toEqual({
        id: 'run-1',
        startedAt: T0,
        finishedAt: null,
        status: 'running',
        source: 'x.json',
        options: { dry: false },
        counters: {},
      });
      await store().runs.finish({ id: 'run-1', status: 'completed', finishedAt: T0 + 10, counters: { batches: 3 } });
      expect(await store().runs.get('run-1')).toMatchObject({
        status: 'completed',
        finishedAt: T0 + 10,
        counters: { batches: 3 },
      });
      expect(await store().runs.get('nope')).toBeNull();
      expect((await store().runs.list()).map((r) => r.id)).toEqual(['run-2', 'run-1']);
      expect((await store().runs.list(1)).map((r) => r.id)).toEqual(['run-2']);
      await expect(
        store().runs.finish({ id: 'nope', status: 'failed', finishedAt: T0, counters: {} }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('saves batches with replace semantics, keeping their order', async () => {
      await store().runs.start({ id: 'run-1', startedAt: T0, status: 'running', source: 's', options: {} });
      await store().runs.start({ id: 'run-2', startedAt: T0, status: 'running', source: 's', options: {} });
      await store().runs.saveBatch(batch('2024-03-15', { episodeIds: ['chatgpt:a'] }));
      await store().runs.saveBatch(batch('2024-03-14'));
      await store().runs.saveBatch(batch('2024-03-15', { runId: 'run-2' }));
      const done = batch('2024-03-15', {
        status: 'done',
        episodeIds: ['chatgpt:a', 'chatgpt:b'],
        tokensIn: 1200,
        tokensOut: 300,
        costUsd: 0.0123,
        startedAt: T0,
        finishedAt: T0 + 1000,
      });
      await store().runs.saveBatch(done);
      await store().runs.saveBatch(batch('2024-03-14', { status: 'failed', error: 'model refused' }));

      const batches = await store().runs.batches('run-1');
      expect(batches).toEqual([done, batch('2024-03-14', { status: 'failed', error: 'model refused' })]);
      expect((await store().runs.batches('run-2')).map((b) => b.key)).toEqual(['2024-03-15']);
      expect(await store().runs.batches('nope')).toEqual([]);
    });
  });

  describe('llm cache', () => {
    const store = useFreshStore(factory);

    it('puts, gets and replaces by key', async () => {
      const entry = {
        key: 'k1',
        model: 'openai:gpt-5-mini',
        prompt: 'extract@3',
        response: '{"entities":[]}',
        tokensIn: 100,
        tokensOut: 20,
        createdAt: T0,
      };
      expect(await store().llmCache.get('k1')).toBeNull();
      await store().llmCache.put(entry);
      expect(await store().llmCache.get('k1')).toEqual(entry);
      await store().llmCache.put({ ...entry, response: 'newer', createdAt: T0 + 1 });
      expect(await store().llmCache.get('k1')).toEqual({ ...entry, response: 'newer', createdAt: T0 + 1 });
    });

    it('deletes by key once: the first delete says it removed the entry, the second finds nothing', async () => {
      const entry = { key: 'k2', model: 'm', prompt: 'p', response: 'r', tokensIn: 1, tokensOut: 1, createdAt: T0 };
      await store().llmCache.put(entry);
      await store().llmCache.put({ ...entry, key: 'k3' });
      expect(await store().llmCache.delete('k2')).toBe(true);
      expect(await store().llmCache.delete('k2')).toBe(false);
      expect(await store().llmCache.get('k2')).toBeNull();
      expect(await store().llmCache.get('k3')).not.toBeNull();
    });
  });

  describe('journal and maintenance log', () => {
    const store = useFreshStore(factory);

    it('returns a run journal in seq order with JSON before/after', async () => {
      const base = { runId: 'sleep-1', table: 'entities', rowId: 'e1', at: T0 };
      await store().journal.append({
        ...base,
        seq: 2,
        op: 'delete',
        before: { id: 'e1', tier: 'active' },
        after: null,
      });
      await store().journal.append({
        ...base,
        seq: 1,
        op: 'update',
        before: { n: 1 },
        after: { n: 2, list: [1, 'x'] },
      });
      await store().journal.append({ ...base, runId: 'sleep-2', seq: 1, op: 'insert', before: undefined, after: 'x' });

      const entries = await store().journal.forRun('sleep-1');
      expect(entries).toEqual([
        { ...base, seq: 1, op: 'update', before: { n: 1 }, after: { n: 2, list: [1, 'x'] } },
        { ...base, seq: 2, op: 'delete', before: { id: 'e1', tier: 'active' }, after: null },
      ]);
      expect((await store().journal.forRun('sleep-2'))[0]).toMatchObject({ before: null, after: 'x' });
      expect(await store().journal.forRun('none')).toEqual([]);
    });

    it('appends, updates and lists maintenance runs newest first', async () => {
      await store().maintenance.append({
        id: 'm1',
        kind: 'quick',
        startedAt: T0,
        finishedAt: null,
        status: 'running',
        report: {},
      });
      await store().maintenance.append({
        id: 'm2',
        kind: 'full',
        startedAt: T0 + DAY,
        finishedAt: null,
        status: 'running',
        report: {},
      });
      await store().maintenance.update({ id: 'm1', finishedAt: T0 + 5, status: 'done', report: { merged: 2 } });
      expect(await store().maintenance.list()).toEqual([
        { id: 'm2', kind: 'full', startedAt: T0 + DAY, finishedAt: null, status: 'running', report: {} },
        { id: 'm1', kind: 'quick', startedAt: T0, finishedAt: T0 + 5, status: 'done', report: { merged: 2 } },
      ]);
      expect((await store().maintenance.list(1)).map((m) => m.id)).toEqual(['m2']);
      await expect(
        store().maintenance.update({ id: 'nope', finishedAt: T0, status: 'done', report: {} }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('finds the latest completed run of a kind and scope, in recorded order, however far back', async () => {
      const run = (id: string, kind: string, status: string, scope: string | null, startedAt: number) =>
        store().maintenance.append({
          id,
          kind,
          startedAt,
          finishedAt: startedAt + 5,
          status,
          report: scope === null ? { merged: 1 } : { scope, tiers: { moved: ['e1', 'e2'] } },
        });
      await run('full-1', 'sleep', 'completed', 'full', T0 + 2 * DAY);
      // Recorded later with an earlier clock (--now in the past): still the latest full run.
      await run('full-2', 'sleep', 'completed', 'full', T0);
      await run('failed', 'sleep', 'failed', 'full', T0 + 3 * DAY);
      await run('other', 'backup', 'completed', 'full', T0 + 3 * DAY);
      for (let i = 0; i < 5; i++) await run(`light-${i}`, 'sleep', 'completed', 'light', T0 + 4 * DAY + i);
      await run('noscope', 'sleep', 'completed', null, T0 + 5 * DAY);
      const m = store().maintenance;
      expect((await m.lastCompleted({ kind: 'sleep', scope: 'full' }))?.id).toBe('full-2');
      expect(await m.lastCompleted({ kind: 'sleep', scope: 'full' })).toEqual({
        id: 'full-2',
        kind: 'sleep',
        startedAt: T0,
        finishedAt: T0 + 5,
        status: 'completed',
        report: { scope: 'full', tiers: { moved: ['e1', 'e2'] } },
      });
      expect((await m.lastCompleted({ kind: 'sleep', scope: 'light' }))?.id).toBe('light-4');
      expect((await m.lastCompleted({ kind: 'sleep' }))?.id).toBe('noscope');
      expect(await m.lastCompleted({ kind: 'sleep', scope: 'deep' })).toBeNull();
      expect(await m.lastCompleted({ kind: 'none' })).toBeNull();
    });
  });

  describe('stats and info', () => {
    const store = useFreshStore(factory);

    it('counts an empty store', async () => {
      expect(await store().stats()).toEqual({
        episodes: 0,
        turns: 0,
        episodesPendingExtraction: 0,
        entities: 0,
        entitiesByType: {},
        entitiesByTier: {},
        transitions: 0,
        facts: 0,
        currentFacts: 0,
        relationships: 0,
        periods: 0,
        procedures: 0,
        firstEpisodeAt: null,
        lastEpisodeAt: null,
      });
      const info = store().info();
      expect(info.adapter.length).toBeGreaterThan(0);
      expect(info.location.length).toBeGreaterThan(0);
      expect(info.schemaVersion).toBeGreaterThanOrEqual(1);
    });

    it('counts everything', async () => {
      await addEpisode(store(), { externalId: 'a', createdAt: T0 + DAY, turns: [turn('user', 'x')] });
      await addEpisode(store(), { externalId: 'b', createdAt: T0 });
      await store().episodes.setExtraction({ ids: ['chatgpt:a'], status: 'extracted' });
      await addEntity(store(), 'p');
      await addEntity(store(), 'q', { type: 'person' });
      await addEntity(store(), 'y', { type: 'period' });
      await store().entities.update('q', { tier: 'archived', updatedAt: T0 });
      await store().transitions.insert(transition('t1', 'p'));
      await store().facts.insert(fact('f1', 'p'));
      await store().facts.insert(fact('f2', 'p', { validFrom: T0 + DAY }));
      await store().facts.close({ id: 'f1', validTo: T0 + DAY, supersededBy: 'f2' });
      await store().relationships.insert(relationship('r1', 'q', 'p'));
      await store().periods.upsert({ entityId: 'y', name: 'Year', start: T0, end: null });
      await store().procedures.upsert({
        id: 'pr',
        description: 'd',
        pattern: [],
        evidence: [],
        timesObserved: 1,
        firstObserved: T0,
        lastObserved: T0,
        domain: null,
        confidence: 0.5,
      });

      expect(await store().stats()).toEqual({
        episodes: 2,
        turns: 3,
        episodesPendingExtraction: 1,
        entities: 3,
        entitiesByType: { period: 1, person: 1, project: 1 },
        entitiesByTier: { active: 2, archived: 1 },
        transitions: 1,
        facts: 2,
        currentFacts: 1,
        relationships: 1,
        periods: 1,
        procedures: 1,
        firstEpisodeAt: T0,
        lastEpisodeAt: T0 + DAY,
      });
    });

    it('closes idempotently', async () => {
      await store().close();
      await store().close();
    });
  });
}
