import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/adapters/llm/fake.js';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { PieError } from '../../src/domain/errors.js';
import { mergedTier } from '../../src/metabolism/merge-entities.js';
import { mergeDuplicatesPhase } from '../../src/metabolism/merge-phase.js';
import { runSleep } from '../../src/metabolism/sleep.js';
import { undoRun } from '../../src/metabolism/undo.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { addEntity, DAY, T0, transition } from '../contracts/world-store/fixtures.js';
import { scriptedClient } from '../helpers/llm.js';

const NOW = T0 + 30 * DAY;

describe('merge duplicates phase on a hand-built world', () => {
  let dir: string;
  let store: WorldStore;
  let ids = 0;
  const newId = () => `gen-${++ids}`;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pie-merge-phase-'));
    store = await openSqliteStore({ path: join(dir, 'pie.db'), clock: () => NOW });
    // Three records of one person (same normalized name), the second with the most history.
    await addEntity(store, 'm1', { type: 'person', name: 'Maya Chen', normalizedName: 'maya chen', firstSeen: T0 });
    await addEntity(store, 'm2', {
      type: 'person',
      name: 'maya  chen',
      normalizedName: 'maya chen',
      firstSeen: T0 + DAY,
    });
    await addEntity(store, 'm3', { type: 'person', name: 'MAYA CHEN', normalizedName: 'maya chen', firstSeen: T0 });
    for (const i of [1, 2, 3]) await store.transitions.insert(transition(`m2-t${i}`, 'm2', { summary: `met ${i}` }));
    await store.transitions.insert(transition('m1-t1', 'm1', { summary: 'first met' }));
    // A protected duplicate is never merged.
    await addEntity(store, 'u1', { type: 'person', name: 'Me', normalizedName: 'me', protected: true });
    await addEntity(store, 'u2', { type: 'person', name: 'me', normalizedName: 'me' });
    // A pair only a model (or a person) could confirm.
    await addEntity(store, 'l1', { name: 'Lantern', normalizedName: 'lantern' });
    await addEntity(store, 'l2', { name: 'Lantern festival', normalizedName: 'lantern festival' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const sleep = (runId: string, llm: Parameters<typeof runSleep>[0]['llm'] = null, dryRun = false) =>
    runSleep({ store, scope: 'full', dryRun, now: NOW, runId, newId, llm, phases: [mergeDuplicatesPhase] });

  it('merges an exact-name group into the one with most history; leaves the rest for review with a task', async () => {
    const dry = await sleep('dry', null, true);
    // The plan counts the review task the real run leaves.
    expect(dry.phases.at(-1)).toMatchObject({ name: 'merge duplicates', status: 'planned', changes: 3 });
    expect(await store.tasks.count()).toBe(0);

    const report = await sleep('r1');
    const phase = report.phases.at(-1);
    expect(phase).toMatchObject({ name: 'merge duplicates', status: 'done', changes: 3 });
    const merged = await Promise.all(['m1', 'm2', 'm3'].map((id) => store.upkeep.getRow({ table: 'entities', id })));
    expect(merged.map((r) => r?.merged_into)).toEqual(['m2', null, 'm2']);
    expect((await store.transitions.forEntity('m2')).map((t) => t.summary)).toEqual(
      expect.arrayContaining(['first met', 'met 1', 'met 2', 'met 3']),
    );
    expect((await store.entities.get('m2'))?.firstSeen).toBe(T0);
    expect((await store.upkeep.getRow({ table: 'entities', id: 'u2' }))?.merged_into).toBeNull();
    const tasks = await store.tasks.list();
    expect(tasks.map((t) => [t.action, [...t.subjectIds].sort(), t.source])).toEqual([
      ['merge_duplicates', ['l1', 'l2'], 'sleep'],
    ]);
    expect(phase?.issues).toEqual([expect.stringContaining('Left for review: "Lantern" / "Lantern festival"')]);

    // A second cycle finds nothing new (the task stays the only one).
    const again = await sleep('r2');
    expect(again.phases.at(-1)?.changes).toBe(0);
    expect(await store.tasks.count()).toBe(1);
    await undoRun({ store, runId: 'r2', now: NOW });
    await undoRun({ store, runId: 'r1', now: NOW });
    expect((await store.upkeep.graphNodes()).map((n) => n.id).sort()).toEqual(
      ['l1', 'l2', 'm1', 'm2', 'm3', 'u1', 'u2'].sort(),
    );
    expect(await store.tasks.count()).toBe(0);
  });

  it('a model that cannot answer leaves the pair for review and says so; one that says no keeps them apart', async () => {
    const model = createScriptedModel({
      script: {
        'confirm-merge@1': [
          { same: true, reason: 'same person' },
          { same: false, reason: 'different records' },
          new PieError('LLM_INVALID_OUTPUT', 'garbled'),
        ],
      },
    });
    const llm = scriptedClient({ model, store: store, now: NOW });
    const report = await sleep('r1', llm);
    const phase = report.phases.at(-1);
    expect(model.calls).toHaveLength(3);
    expect(model.calls[0]?.messages.map((m) => m.content).join('\n')).toContain('met 3');
    expect(phase?.details).toMatchObject({ confirmationsAsked: 3 });
    const details = phase?.details as { merged: unknown[]; rejected: unknown[]; leftForReview: unknown[] };
    expect([details.merged.length, details.rejected.length, details.leftForReview.length]).toEqual([1, 1, 1]);
    expect(phase?.issues?.some((i) => i.startsWith('Could not confirm'))).toBe(true);
    // The pair the model could not answer is left for review with a task; the rejected one is not.
    expect((await store.tasks.list()).map((t) => [...t.subjectIds].sort())).toEqual([['l1', 'l2']]);
  });
});

describe('mergedTier', () => {
  it.each([
    ['archived', 'active', 'active'],
    ['summarized', 'archived', 'summarized'],
    ['archived', 'archived', 'archived'],
    ['active', 'summarized', 'active'],
  ] as const)('%s + %s → %s', (a, b, want) => {
    expect(mergedTier(a, b)).toBe(want);
  });
});
