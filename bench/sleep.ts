import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openSqliteStore } from '../src/adapters/store/sqlite/index.js';
import { computeImportance } from '../src/metabolism/importance.js';
import { planSalience } from '../src/metabolism/plan.js';
import { runSleep, type SleepReport } from '../src/metabolism/sleep.js';
import { recencyDays } from '../src/metabolism/tiers.js';
import { undoRun } from '../src/metabolism/undo.js';
import type { WorldStore } from '../src/ports/world-store.js';
import { WORLD_NOW, ensureWorld } from './generate/world.js';
import { machineLine, mdTable, writeSection } from './report.js';
import { BENCH_TMP, removeDb } from './workspace.js';

interface Timed<T> {
  value: T;
  wallMs: number;
  cpuMs: number;
}

async function timed<T>(fn: () => Promise<T>): Promise<Timed<T>> {
  const t = performance.now();
  const c = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(c);
  return { value, wallMs: performance.now() - t, cpuMs: (used.user + used.system) / 1000 };
}

const seconds = (ms: number): string => (ms / 1000).toFixed(2);

function phaseNote(report: SleepReport): string {
  return report.phases
    .filter((p) => p.status !== 'skipped' && p.changes > 0)
    .map((p) => `${p.name} ${p.changes.toLocaleString('en-US')}`)
    .join(', ');
}

/** Importance alone (the pure fixed-point iteration), on the graph as read once. */
async function importanceOnly(store: WorldStore, now: number): Promise<Timed<{ iterations: number }>> {
  const nodes = await store.upkeep.graphNodes();
  const edges = await store.upkeep.graphEdges();
  return timed(async () => {
    const r = computeImportance({
      nodes: nodes.map((n) => ({
        id: n.id,
        recencyDays: recencyDays(n.lastSeen, now),
        transitions: n.transitions,
        accessCount: n.accessCount,
      })),
      edges,
    });
    return { iterations: r.iterations };
  });
}

/**
 * The measured steps on one store (a copy the caller may change): importance alone, the salience plan, a full dry
 * run, a first and a second full run, and the undo of both. Rows of the report table: step, wall s, CPU s, what.
 */
export async function sleepSteps(input: { store: WorldStore; now: number }): Promise<string[][]> {
  const { store, now } = input;
  let n = 0;
  const newId = (): string => `bench-${++n}`;
  const rows: string[][] = [];
  const importance = await importanceOnly(store, now);
  rows.push([
    '`computeImportance` alone',
    seconds(importance.wallMs),
    seconds(importance.cpuMs),
    `${importance.value.iterations} iterations`,
  ]);
  console.log(`importance: ${seconds(importance.wallMs)} s`);
  const salience = await timed(() => planSalience({ store, now }));
  rows.push([
    'salience plan (read graph, importance, tiers)',
    seconds(salience.wallMs),
    seconds(salience.cpuMs),
    `${salience.value.importance.length.toLocaleString('en-US')} importance, ${salience.value.tiers.length.toLocaleString('en-US')} tier changes`,
  ]);
  console.log(`salience: ${seconds(salience.wallMs)} s`);
  const sleep = (dryRun: boolean, runId: string) =>
    timed(() => runSleep({ store, scope: 'full', dryRun, now, runId, newId }));
  const dry = await sleep(true, 'bench-dry');
  rows.push(['`pie sleep --scope full --dry-run`', seconds(dry.wallMs), seconds(dry.cpuMs), phaseNote(dry.value)]);
  console.log(`dry run: ${seconds(dry.wallMs)} s`);
  const first = await sleep(false, 'bench-first');
  rows.push([
    '`pie sleep --scope full`, first run',
    seconds(first.wallMs),
    seconds(first.cpuMs),
    `${first.value.journaled.toLocaleString('en-US')} rows journaled: ${phaseNote(first.value)}`,
  ]);
  console.log(`first run: ${seconds(first.wallMs)} s, ${first.value.journaled} rows`);
  const second = await sleep(false, 'bench-second');
  rows.push([
    '`pie sleep --scope full`, second run',
    seconds(second.wallMs),
    seconds(second.cpuMs),
    `${second.value.journaled.toLocaleString('en-US')} rows journaled${phaseNote(second.value) ? `: ${phaseNote(second.value)}` : ''}`,
  ]);
  const undoSecond = await timed(() => undoRun({ store, runId: 'bench-second', now: now + 1 }));
  const undoFirst = await timed(() => undoRun({ store, runId: 'bench-first', now: now + 2 }));
  rows.push([
    '`pie undo` of the first run',
    seconds(undoFirst.wallMs),
    seconds(undoFirst.cpuMs),
    `${undoFirst.value.restored.toLocaleString('en-US')} rows restored (after undoing the second run, ${seconds(undoSecond.wallMs)} s)`,
  ]);
  console.log(`undo: ${seconds(undoFirst.wallMs)} s`);
  return rows;
}

/**
 * The sleep cycle on the ~20k-entity synthetic world (bench/generate/world.ts), on a copy: importance alone, the
 * salience plan (graph read + importance + tiers), a full dry run, the first full run (everything journaled), a
 * second full run (what is left to do once the world is settled) and the undo of the second and first runs.
 * No model is configured, so model-only phases are skipped. `npm run bench -- sleep [--db FILE]`.
 */
export async function benchSleep(): Promise<void> {
  const { values } = parseArgs({ args: process.argv.slice(3), options: { db: { type: 'string' } } });
  const source = values.db ?? (await ensureWorld()).path;
  const db = join(BENCH_TMP, 'sleep-world.db');
  removeDb({ db });
  copyFileSync(source, db);
  if (existsSync(`${source}-wal`)) copyFileSync(`${source}-wal`, `${db}-wal`);
  const now = WORLD_NOW;
  const store = await openSqliteStore({ path: db });
  try {
    const stats = await store.stats();
    const rows = await sleepSteps({ store, now });
    const markdown = [
      '## Sleep cycle at scale',
      '',
      `World: ${stats.entities.toLocaleString('en-US')} entities, ${stats.relationships.toLocaleString('en-US')} relationships, ` +
        `${stats.transitions.toLocaleString('en-US')} transitions, ${stats.facts.toLocaleString('en-US')} facts, ` +
        `${stats.episodes.toLocaleString('en-US')} episodes (bench/generate/world.ts, a copy), now = ${new Date(now).toISOString().slice(0, 10)}. ` +
        'No model configured: model-only phases are skipped. In-process, one run each; wall and CPU seconds of this process. ' +
        'Target (issue 7): importance recomputation ≤ 2 s.',
      '',
      mdTable(['step', 'wall s', 'CPU s', 'what it did'], rows),
      '',
      `Command: \`npm run bench -- sleep${values.db ? ' --db …' : ''}\`. ${machineLine()}.`,
    ].join('\n');
    writeSection({ name: 'sleep', markdown });
  } finally {
    await store.close();
    removeDb({ db });
  }
}
