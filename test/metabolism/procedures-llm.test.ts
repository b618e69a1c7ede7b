import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/adapters/llm/fake.js';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { llmProceduresPhase } from '../../src/metabolism/procedures-llm-phase.js';
import { pickLifecycles, proceduresFromAnswer, type NamedLifecycle } from '../../src/metabolism/procedures-llm.js';
import { runSleep } from '../../src/metabolism/sleep.js';
import { undoRun } from '../../src/metabolism/undo.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { addEntity, DAY, T0, transition } from '../contracts/world-store/fixtures.js';
import { scriptedClient } from '../helpers/llm.js';

const NOW = T0 + 60 * DAY;

function lifecycle(entityId: string, name: string, days: number[]): NamedLifecycle {
  return {
    entityId,
    name,
    type: 'project',
    transitions: days.map((d, i) => ({
      kind: i === 0 ? 'creation' : 'update',
      summary: `step ${i}`,
      eventTime: T0 + d * DAY,
      episodeId: `ep-${entityId}-${i}`,
    })),
  };
}

describe('procedures from a model: the pure parts', () => {
  it('shows only histories of 3+ changes, longest first', () => {
    const picked = pickLifecycles([
      lifecycle('a', 'Alpha', [0, 1]),
      lifecycle('b', 'Beta', [0, 1, 2]),
      lifecycle('c', 'Gamma', [0, 1, 2, 3]),
    ]);
    expect(picked.map((l) => l.entityId)).toEqual(['c', 'b']);
  });

  it('keeps procedures with two known histories as evidence, with their times; ids are stable', () => {
    const shown = [lifecycle('b', 'Beta', [0, 1, 2]), lifecycle('c', 'Gamma', [5, 6, 9])];
    const answer = {
      procedures: [
        {
          description: 'Builds, then pivots',
          steps: ['idea', 'prototype', 'pivot'],
          domain: 'Project lifecycle',
          evidence: ['beta', 'Gamma', 'Unknown'],
          confidence: 0.777,
        },
        { description: 'one history only', steps: ['a', 'b'], domain: 'x', evidence: ['Beta'], confidence: 0.5 },
      ],
    };
    const [p, ...rest] = proceduresFromAnswer({ answer, lifecycles: shown });
    expect(rest).toEqual([]);
    expect(p).toMatchObject({
      description: 'Builds, then pivots',
      pattern: ['idea', 'prototype', 'pivot'],
      domain: 'project lifecycle',
      timesObserved: 2,
      firstObserved: T0,
      lastObserved: T0 + 9 * DAY,
      confidence: 0.78,
    });
    expect(p?.evidence.slice(0, 2)).toEqual(['b', 'c']);
    expect(p?.id).toMatch(/^llmproc-[0-9a-f]{16}$/);
    expect(proceduresFromAnswer({ answer, lifecycles: shown })[0]?.id).toBe(p?.id);
  });
});

describe('the procedures (model) phase', () => {
  let dir: string;
  let store: WorldStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pie-llmproc-'));
    store = await openSqliteStore({ path: join(dir, 'pie.db') });
    for (const [id, name] of [
      ['p1', 'Tidepool'],
      ['p2', 'Lanternfish'],
      ['p3', 'Side quest'],
    ] as const) {
      await addEntity(store, id, { name, lastSeen: T0 + 20 * DAY });
    }
    const steps = ['idea', 'research', 'prototype'];
    for (const id of ['p1', 'p2']) {
      for (const [i, stage] of steps.entries()) {
        await store.transitions.insert(
          transition(`${id}-t${i}`, id, {
            kind: i === 0 ? 'creation' : 'update',
            toState: { stage },
            summary: `Moved ${id} to ${stage}`,
            eventTime: T0 + (i + (id === 'p2' ? 10 : 0)) * DAY,
          }),
        );
      }
    }
    await store.transitions.insert(transition('p3-t0', 'p3', { kind: 'creation', summary: 'Started' }));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('without a model it is skipped and writes nothing', async () => {
    const report = await runSleep({
      store,
      scope: 'full',
      dryRun: false,
      now: NOW,
      runId: 'r0',
      newId: () => 'x',
      phases: [llmProceduresPhase],
    });
    expect(report.phases.at(-1)).toMatchObject({ name: 'procedures (model)', status: 'skipped' });
    expect((await store.procedures.list()).filter((p) => p.id.startsWith('llmproc-'))).toEqual([]);
  });

  it('a model that fails costs the cycle nothing else: the phase is reported skipped with the reason', async () => {
    const model = createScriptedModel({ script: { 'extract-procedures@1': [new Error('overloaded')] } });
    const report = await runSleep({
      store,
      scope: 'full',
      dryRun: false,
      now: NOW,
      runId: 'r-fail',
      newId: () => 'x',
      llm: scriptedClient({ model, store, now: NOW }),
      phases: [llmProceduresPhase],
    });
    expect(report.phases.at(-1)).toMatchObject({ name: 'procedures (model)', status: 'skipped' });
    expect(report.phases.at(-1)?.reason).toMatch(/^the model could not answer: .*overloaded/);
    expect(report.phases.find((p) => p.name === 'salience')?.status).toBe('done');
  });

  it('a dry run calls no model', async () => {
    const model = createScriptedModel({ script: {} });
    const report = await runSleep({
      store,
      scope: 'full',
      dryRun: true,
      now: NOW,
      runId: 'dry',
      newId: () => 'x',
      llm: scriptedClient({ model, store, now: NOW }),
      phases: [llmProceduresPhase],
    });
    expect(model.calls).toEqual([]);
    expect(report.phases.at(-1)).toMatchObject({
      name: 'procedures (model)',
      status: 'planned',
      details: { lifecycles: 2, note: 'a dry run calls no model' },
    });
  });

  it('asks the model about the histories and stores what it found; undo removes it', async () => {
    const model = createScriptedModel({
      script: {
        'extract-procedures@1': [
          {
            procedures: [
              {
                description: 'Researches before prototyping',
                steps: ['have the idea', 'research it', 'build a prototype'],
                domain: 'project lifecycle',
                evidence: ['Tidepool', 'Lanternfish'],
                confidence: 0.8,
              },
            ],
          },
        ],
      },
    });
    const llm = scriptedClient({ model, store: store, now: NOW });
    const report = await runSleep({
      store,
      scope: 'full',
      dryRun: false,
      now: NOW,
      runId: 'r1',
      newId: () => 'x',
      llm,
      phases: [llmProceduresPhase],
    });
    const prompt = model.calls[0]?.messages.map((m) => m.content).join('\n') ?? '';
    expect(prompt).toContain('## Tidepool (project)');
    expect(prompt).toContain('[update] Moved p2 to prototype');
    expect(prompt).not.toContain('Side quest'); // one change only: not shown
    const stored = (await store.procedures.list()).filter((p) => p.id.startsWith('llmproc-'));
    expect(stored).toEqual([
      expect.objectContaining({
        description: 'Researches before prototyping',
        pattern: ['have the idea', 'research it', 'build a prototype'],
        timesObserved: 2,
        firstObserved: T0,
        lastObserved: T0 + 12 * DAY,
        confidence: 0.8,
      }),
    ]);
    expect(report.phases.at(-1)).toMatchObject({ name: 'procedures (model)', status: 'done', changes: 1 });
    await undoRun({ store, runId: 'r1', now: NOW + 1 });
    expect((await store.procedures.list()).filter((p) => p.id.startsWith('llmproc-'))).toEqual([]);
  });
});
