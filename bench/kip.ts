import { copyFileSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openSqliteStore } from '../src/adapters/store/sqlite/index.js';
import { executeKip, type KipResponse } from '../src/kip/api.js';
import type { JsonValue } from '../src/kip/ast.js';
import type { WorldStore } from '../src/ports/world-store.js';
import { WORLD_NOW, ensureWorld } from './generate/world.js';
import { machineLine, mdTable, writeSection } from './report.js';
import { BENCH_TMP, removeDb } from './workspace.js';

interface Probe {
  label: string;
  command: string;
  parameters: Record<string, JsonValue>;
}

const WARM_UP = 3;
/** The figures go to docs/kip.md (its benchmark section), next to the description of what they measure. */
const KIP_MD = fileURLToPath(new URL('../docs/kip.md', import.meta.url));

/**
 * KIP over the synthetic ~20k-entity world (bench/generate/world.ts): the typical two-pattern FIND with FILTER and
 * ORDER BY (broad: every Person × works_on; anchored: one named project), plus an ego-graph probe and a SEARCH. The
 * world is copied first (the KIP schema bootstrap writes), and the bootstrap is timed on its own.
 * `npm run bench -- kip [--runs N] [--db FILE]`.
 */
export async function benchKip(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { runs: { type: 'string', default: '30' }, db: { type: 'string' } },
  });
  const runs = Math.max(1, Number(values.runs));
  const source = values.db ?? (await ensureWorld()).path;
  const db = join(BENCH_TMP, 'kip-world.db');
  removeDb({ db });
  copyFileSync(source, db);
  if (existsSync(`${source}-wal`)) copyFileSync(`${source}-wal`, `${db}-wal`);

  const store = await openSqliteStore({ path: db });
  try {
    const stats = await store.stats();
    const clock = { now: () => WORLD_NOW };
    const started = performance.now();
    const primer = await executeKip({ store, command: 'DESCRIBE PRIMER', clock });
    const bootstrapMs = performance.now() - started;
    failOnError(primer, 'DESCRIBE PRIMER');
    const probes = await probesFor(store);
    const rows: string[][] = [];
    for (const probe of probes) {
      const wall: number[] = [];
      const cpu: number[] = [];
      let size = 0;
      for (let i = 0; i < WARM_UP + runs; i++) {
        const t = performance.now();
        const c = process.cpuUsage();
        const r = await executeKip({ store, command: probe.command, parameters: probe.parameters, clock });
        const used = process.cpuUsage(c);
        const ms = performance.now() - t;
        failOnError(r, probe.label);
        if (i >= WARM_UP) {
          wall.push(ms);
          cpu.push((used.user + used.system) / 1000);
        }
        size = 'result' in r && Array.isArray(r.result) ? r.result.length : 0;
      }
      const s = summary(wall);
      const c = summary(cpu);
      rows.push([probe.label, String(size), s.p50, s.p95, s.max, c.p50, c.p95]);
      console.log(
        `${probe.label}: ${size} rows, wall p50 ${s.p50} / p95 ${s.p95} ms, CPU p50 ${c.p50} / p95 ${c.p95} ms`,
      );
    }
    const command = `npm run bench -- kip --runs ${runs}${values.db ? ' --db …' : ''}`;
    const markdown = [
      `World: ${stats.entities.toLocaleString('en-US')} entities, ${stats.relationships.toLocaleString('en-US')} relationships, ` +
        `${stats.transitions.toLocaleString('en-US')} transitions (${values.db ? `${basename(values.db)}` : 'bench/generate/world.ts'}). ` +
        `First KIP use (schema bootstrap, then DESCRIBE PRIMER): ${bootstrapMs.toFixed(0)} ms. ` +
        `Each probe: ${WARM_UP} warm-up runs, then ${runs} timed runs of \`executeKip\` in-process (parse, bootstrap check, schema load, execution); ` +
        `wall-clock and CPU time of this process (CPU is the steadier figure on a shared machine).`,
      '',
      mdTable(['probe', 'rows', 'wall p50 ms', 'wall p95 ms', 'wall max ms', 'CPU p50 ms', 'CPU p95 ms'], rows),
      '',
      ...probes.map((p) => `- ${p.label}: \`${p.command.replace(/\s+/g, ' ')}\``),
      '',
      `Command: \`${command}\`. ${machineLine()}.`,
    ].join('\n');
    writeSection({ name: 'kip', markdown, file: KIP_MD });
  } finally {
    await store.close();
  }
}

/** The probes, with the anchor drawn from the world itself (its most important project with people on it). */
async function probesFor(store: WorldStore): Promise<Probe[]> {
  let anchor = '';
  for (const p of await store.entities.list({ type: 'project', limit: 50 })) {
    const edges = await store.relationships.forEntity(p.id);
    if (edges.filter((r) => r.type === 'WORKS_ON' && r.targetId === p.id).length >= 3) {
      anchor = p.name;
      break;
    }
  }
  const [hub] = await store.entities.list({ type: 'person', offset: 1, limit: 1 });
  return [
    {
      label: 'two patterns, broad (every Person × works_on) + FILTER + ORDER BY',
      command: `FIND(?p.name, ?proj.name, ?proj.attributes.users)
        WHERE {
          ?p {type: "Person"}
          (?p, "works_on", ?proj)
          FILTER(?proj.attributes.stage == "launched" && ?proj.attributes.users >= 40)
        }
        ORDER BY ?proj.attributes.users DESC, ?p.name ASC
        LIMIT 20`,
      parameters: {},
    },
    {
      label: 'two patterns, anchored (one Project by name) + FILTER + ORDER BY',
      command: `FIND(?p.name, ?p.attributes.role, ?l.attributes.role)
        WHERE {
          ?proj {type: "Project", name: :project}
          ?l (?p, "works_on", ?proj)
          FILTER(IS_NOT_NULL(?p.attributes.role) || IS_NOT_NULL(?l.attributes.role))
        }
        ORDER BY ?p.name
        LIMIT 20`,
      parameters: { project: anchor },
    },
    {
      label: 'ego graph (predicate variable) of a hub person',
      command: `FIND(?pred, COUNT(?n))
        WHERE { ({type: "Person", name: :name}, ?pred, ?n) }
        ORDER BY COUNT(?n) DESC`,
      parameters: { name: hub?.name ?? '' },
    },
    {
      label: 'SEARCH CONCEPT (keyword) with type',
      command: 'SEARCH CONCEPT :term WITH TYPE "Project" LIMIT 10',
      parameters: { term: anchor.split(' ')[0] ?? anchor },
    },
  ];
}

function failOnError(r: KipResponse, label: string): void {
  if ('error' in r) throw new Error(`${label}: ${r.error.code} ${r.error.message}`);
}

function summary(times: number[]): { p50: string; p95: string; max: string } {
  const sorted = [...times].sort((a, b) => a - b);
  const rank = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { p50: rank(0.5).toFixed(1), p95: rank(0.95).toFixed(1), max: (sorted.at(-1) ?? 0).toFixed(1) };
}
