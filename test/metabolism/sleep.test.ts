import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { runSleep } from '../../src/metabolism/sleep.js';
import { undoRun } from '../../src/metabolism/undo.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { addEntity, DAY, relationship, T0, transition } from '../contracts/world-store/fixtures.js';

const NOW = T0 + 400 * DAY;

describe('runSleep / undoRun on a hand-built world', () => {
  let dir = '';
  let store: WorldStore;
  let ids = 0;
  const newId = (): string => `id-${(ids += 1)}`;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pie-metabolism-'));
    store = await openSqliteStore({ path: join(dir, 'pie.db'), clock: () => T0 });
    ids = 0;
    // A fresh hub with two old neighbours, an old verbose loner and an old forgotten one.
    await addEntity(store, 'hub', { lastSeen: NOW - DAY });
    await addEntity(store, 'n1', { lastSeen: T0, type: 'tool' });
    await addEntity(store, 'n2', { lastSeen: T0, type: 'tool' });
    await addEntity(store, 'verbose', { lastSeen: T0 + 200 * DAY });
    await addEntity(store, 'forgotten', { lastSeen: T0, type: 'concept' });
    await addEntity(store, 'kept', { lastSeen: T0, type: 'concept', protected: true });
    for (let i = 0; i < 4; i += 1) {
      await store.transitions.insert(
        transition(`v${i}`, 'verbose', { eventTime: T0 + i * DAY, summary: `step ${i}`, toState: { n: i } }),
      );
    }
    await store.relationships.insert(relationship('r1', 'hub', 'n1'));
    await store.relationships.insert(relationship('r2', 'hub', 'n2'));
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function rowsOf(entityIds: string[]) {
    return Promise.all(entityIds.map((id) => store.upkeep.getRow({ table: 'entities', id })));
  }
  const ALL = ['hub', 'n1', 'n2', 'verbose', 'forgotten', 'kept'];

  it('journals each change with the exact row before and after, and undo puts the rows back', async () => {
    const before = await rowsOf(ALL);
    const report = await runSleep({ store, scope: 'full', dryRun: false, now: NOW, runId: 'run-1', newId });
    const tiers = Object.fromEntries((await store.entities.getMany(ALL)).map((e) => [e.id, e.tier]));
    expect(tiers).toEqual({
      hub: 'active',
      n1: 'summarized',
      n2: 'summarized',
      verbose: 'summarized',
      forgotten: 'archived',
      kept: 'active',
    });
    const journal = await store.journal.forRun('run-1');
    expect(journal).toHaveLength(report.journaled);
    expect(journal.map((j) => j.seq)).toEqual(journal.map((_, i) => i));
    // The last journaled image of each row is the row as stored now.
    const lastAfter = new Map(journal.map((j) => [`${j.table}/${j.rowId}`, j.after]));
    for (const [key, after] of lastAfter) {
      const [table, id] = key.split('/') as ['entities' | 'transitions', string];
      expect(await store.upkeep.getRow({ table, id })).toEqual(after);
    }
    const inserted = journal.filter((j) => j.op === 'insert').map((j) => j.rowId);
    expect(inserted).toEqual(['id-1', 'id-2']);
    expect((await store.transitions.getMany(inserted)).map((t) => [t.entityId, t.kind])).toEqual([
      ['forgotten', 'archival'],
      ['verbose', 'summary'],
    ]);

    await undoRun({ store, runId: 'run-1', now: NOW });
    expect(await rowsOf(ALL)).toEqual(before);
    expect(await store.transitions.getMany(inserted)).toEqual([]);
    expect(await store.transitions.forEntity('verbose')).toHaveLength(4);
  });

  it('refuses to undo over later changes unless forced; forced, it reverts the run and keeps the later changes', async () => {
    const pre = await store.upkeep.getRow({ table: 'entities', id: 'verbose' });
    await runSleep({ store, scope: 'quick', dryRun: false, now: NOW, runId: 'run-1', newId });
    const slept = await store.upkeep.getRow({ table: 'entities', id: 'verbose' });
    const touched = await store.entities.update('verbose', {
      lastSeen: NOW,
      state: { stage: 'launched' },
      updatedAt: NOW,
    });
    await expect(undoRun({ store, runId: 'run-1', now: NOW })).rejects.toThrow(
      /1 row\(s\) changed after run run-1 \(e\.g\. entities verbose\).*--force/,
    );
    expect(await store.entities.get('verbose')).toEqual(touched);
    const now = await store.upkeep.getRow({ table: 'entities', id: 'verbose' });
    const report = await undoRun({ store, runId: 'run-1', now: NOW, force: true });
    expect(report.kept).toBe(1);
    const undone = await store.upkeep.getRow({ table: 'entities', id: 'verbose' });
    // Every column the later change left alone is as before the run; the columns it set keep its values.
    const laterColumns = Object.keys(now ?? {}).filter((c) => now?.[c] !== slept?.[c]);
    expect(laterColumns).toEqual(expect.arrayContaining(['last_seen', 'state']));
    expect(undone).toEqual({ ...pre, ...Object.fromEntries(laterColumns.map((c) => [c, now?.[c]])) });
    expect((await store.entities.get('verbose'))?.lastSeen).toBe(NOW);
    // The run did change this row (its summary archived the verbose history): something went back.
    expect(Object.keys(pre ?? {}).some((c) => pre?.[c] !== slept?.[c] && !laterColumns.includes(c))).toBe(true);
  });

  it('a failure mid-cycle rolls everything back and logs the failure', async () => {
    const before = await rowsOf(ALL);
    const failing = (): string => {
      throw new Error('id source exhausted');
    };
    await expect(
      runSleep({ store, scope: 'quick', dryRun: false, now: NOW, runId: 'run-bad', newId: failing }),
    ).rejects.toThrow('id source exhausted');
    expect(await rowsOf(ALL)).toEqual(before);
    expect(await store.journal.forRun('run-bad')).toEqual([]);
    expect(await store.maintenance.list()).toEqual([
      expect.objectContaining({
        id: 'run-bad',
        status: 'failed',
        report: { scope: 'quick', error: 'id source exhausted' },
      }),
    ]);
    await expect(undoRun({ store, runId: 'run-bad', now: NOW })).rejects.toThrow(/failed and changed nothing/);
  });

  it('a dry run plans the same changes and writes nothing', async () => {
    const before = await rowsOf(ALL);
    const dry = await runSleep({ store, scope: 'full', dryRun: true, now: NOW, runId: 'dry', newId });
    expect(await rowsOf(ALL)).toEqual(before);
    expect(await store.maintenance.list()).toEqual([]);
    const real = await runSleep({ store, scope: 'full', dryRun: false, now: NOW, runId: 'real', newId });
    expect(dry.phases.map((p) => [p.name, p.changes])).toEqual(real.phases.map((p) => [p.name, p.changes]));
    expect(dry.phases.filter((p) => p.status !== 'skipped').every((p) => p.status === 'planned')).toBe(true);
  });
});
