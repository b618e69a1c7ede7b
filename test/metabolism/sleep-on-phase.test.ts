import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import type { SleepPhase } from '../../src/metabolism/phase.js';
import { sleepPhaseNames } from '../../src/metabolism/plan-reports.js';
import { runSleep, type PhaseReport, type SleepOptions } from '../../src/metabolism/sleep.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { addEntity, DAY, relationship, T0 } from '../contracts/world-store/fixtures.js';

/**
 * A dry run hands each line of its report to onPhase as soon as that phase is planned (what the web preview streams):
 * in report order, before the next phase runs, the same lines as the final report; a throwing onPhase stops it.
 */
const NOW = T0 + 400 * DAY;

let dir = '';
let store: WorldStore;
let events: string[] = [];

/** A phase that records when it runs and plans one change. */
const recorded = (name: string): SleepPhase => ({
  name,
  scopes: ['full', 'quick'],
  run: () => {
    events.push(`ran ${name}`);
    return Promise.resolve({ changes: 1, details: { what: name } });
  },
});
const PHASES = [recorded('first'), recorded('second')];

function sleep(o: Partial<SleepOptions>) {
  return runSleep({ store, scope: 'full', dryRun: true, now: NOW, runId: 'r', newId: () => 'x', phases: PHASES, ...o });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pie-on-phase-'));
  store = await openSqliteStore({ path: join(dir, 'pie.db'), clock: () => T0 });
  events = [];
  await addEntity(store, 'hub', { lastSeen: NOW - DAY });
  await addEntity(store, 'old', { lastSeen: T0, type: 'tool' });
  await store.relationships.insert(relationship('r1', 'hub', 'old'));
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('runSleep onPhase (dry run)', () => {
  it.each(['full', 'quick'] as const)(
    '%s: every line in report order, each before the next phase runs',
    async (scope) => {
      const lines: PhaseReport[] = [];
      const report = await sleep({
        scope,
        onPhase: (p) => {
          lines.push(p);
          events.push(`reported ${p.name}`);
        },
      });
      expect(lines).toEqual(report.phases);
      expect(lines.map((p) => p.name)).toEqual(sleepPhaseNames(PHASES));
      expect(events.slice(-4)).toEqual(['ran first', 'reported first', 'ran second', 'reported second']);
      expect(events.slice(0, 4)).toEqual([
        'reported salience',
        'reported tiers',
        'reported confidence decay',
        'reported procedures',
      ]);
    },
  );

  it('is awaited: a line still being handled holds the next phase back', async () => {
    let release = (): void => undefined;
    let reached = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const handed = new Promise<void>((resolve) => (reached = resolve));
    const run = sleep({
      onPhase: (p) => {
        if (p.name !== 'first') return undefined;
        reached();
        return held;
      },
    });
    await handed;
    // Many turns of the event loop later, the second phase has still not run.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['ran first']);
    release();
    await run;
    expect(events).toEqual(['ran first', 'ran second']);
  });

  it('a throwing onPhase stops the preview there', async () => {
    const stop = sleep({
      onPhase: (p) => {
        if (p.name === 'procedures') throw new Error('client gone');
      },
    });
    await expect(stop).rejects.toThrow('client gone');
    expect(events).toEqual([]);
  });

  it('is not called by a real run', async () => {
    const lines: PhaseReport[] = [];
    await sleep({ dryRun: false, onPhase: (p) => void lines.push(p) });
    expect(lines).toEqual([]);
    expect(events).toEqual(['ran first', 'ran second']);
  });
});
