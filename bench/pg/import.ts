import { join } from 'node:path';
import pg from 'pg';
import { plural } from '../../src/domain/humanize.js';
import { DEFAULT_SCHEMA, openPostgresStore } from '../../src/adapters/store/postgres/index.js';
import { memorySchema } from '../../src/config/memory.js';
import { dropSchema } from '../../scripts/pg-cluster.js';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { runPieOk, type PieRun } from '../child.js';
import { DAILY_SHAPE, DAYS, DELAY_MS, writeFakeScript } from '../concurrency.js';
import { writeSyntheticExport } from '../generate/chatgpt-export.js';
import { parseIngestJson, type IngestJson } from '../ingest-json.js';
import { machineLine, mdTable, writeSection } from '../report.js';
import { BENCH_TMP, ensureSpecExport, freshDb, NO_MODEL_ENV } from '../workspace.js';
import { benchServer, type BenchServer } from './server.js';

/** Where a run writes: a SQLite file, or a memory (schema `pie_<name>`) of the bench server. */
type Target = { kind: 'sqlite'; db: string } | { kind: 'postgres'; url: string; memory: string };

const targetArgs = (t: Target): string[] =>
  t.kind === 'sqlite' ? ['--db', t.db] : ['--db', t.url, '--memory', t.memory];

async function openTarget(t: Target): Promise<WorldStore> {
  return t.kind === 'sqlite'
    ? openSqliteStore({ path: t.db })
    : openPostgresStore({ url: t.url, schema: schemaOf(t.memory) });
}

/** The schema holding a benchmark memory (`--memory NAME`). */
const schemaOf = (memory: string): string => memorySchema(memory) ?? DEFAULT_SCHEMA;

const dropMemory = (url: string, memory: string): Promise<void> => dropSchema(url, schemaOf(memory));

/** Batches a running ingest has applied to a memory so far (0 before its tables exist). */
async function doneBatches(url: string, memory: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${schemaOf(memory)}".ingest_batches WHERE status = 'done'`,
    );
    return Number(r.rows[0]?.n ?? 0);
  } catch {
    return 0;
  } finally {
    await client.end();
  }
}

interface Measured {
  run: PieRun;
  report: IngestJson;
  extractionMs: number;
}

/** `pie ingest` of `exportPath` with the offline rules; the extraction stage timed from the store's run record. */
async function ingest(input: { target: Target; exportPath: string; limit?: number }): Promise<Measured> {
  const limit = input.limit === undefined ? [] : ['--limit', String(input.limit)];
  const args = [...targetArgs(input.target), '--json', '--tz', 'UTC', 'ingest', input.exportPath];
  const run = await runPieOk({ args: [...args, '--extractor', 'offline', ...limit] });
  const report = parseIngestJson({ stdout: run.stdout });
  const store = await openTarget(input.target);
  try {
    const record = await store.runs.get(report.extraction.runId);
    if (!record || record.finishedAt === null) throw new Error(`run ${report.extraction.runId} not finished`);
    return { run, report, extractionMs: record.finishedAt - record.startedAt };
  } finally {
    await store.close();
  }
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1);

/** The import stage (first import, re-import) and the offline extraction of the spec-scale export into one target. */
async function importRows(label: string, target: Target, exportPath: string, bytes: number): Promise<string[][]> {
  const rows: string[][] = [];
  for (const run of ['first import', 're-import']) {
    const m = await ingest({ target, exportPath, limit: 1 });
    const o = m.report.import.outcomes;
    const importMs = m.run.wallMs - m.extractionMs;
    rows.push([
      label,
      run,
      `${o.inserted}/${o.updated}/${o.unchanged}`,
      seconds(m.run.wallMs),
      (bytes / 1e6 / (importMs / 1000)).toFixed(1),
      m.run.maxRssMb.toFixed(0),
    ]);
    console.log(`${label} ${run}: ${seconds(m.run.wallMs)} s`);
  }
  console.log(`${label}: offline extraction of the rest…`);
  const x = await ingest({ target, exportPath });
  const b = x.report.extraction.batches;
  if (b.failed > 0 || b.notStarted > 0)
    throw new Error(`${label}: offline extraction incomplete: ${JSON.stringify(b)}`);
  rows.push([
    label,
    `offline extraction (${b.done} batches)`,
    '—',
    seconds(x.run.wallMs),
    `${(b.done / (x.extractionMs / 1000)).toFixed(1)} batches/s`,
    x.run.maxRssMb.toFixed(0),
  ]);
  console.log(`${label} extraction: ${seconds(x.extractionMs)} s`);
  return rows;
}

// The concurrency benchmark's export and model (200 daily batches, an answer after 2 s): start-up and the first
// batch (before a second worker can help) are fixed costs, and a real history has hundreds of batches.
const WORKER_DAYS = DAYS;

interface Workers {
  wallMs: number;
  calls: number;
  prepared: number;
  counts: string;
}

/**
 * `workers` `pie ingest` processes on one fresh memory, each `--concurrency 1`, with a fake model
 * answering every batch after DELAY_MS: one applies, the others extract batches ahead for it (src/ingest/help.ts).
 */
async function ingestWorkers(input: {
  url: string;
  memory: string;
  exportPath: string;
  script: string;
  workers: number;
}): Promise<Workers> {
  await dropMemory(input.url, input.memory);
  const target: Target = { kind: 'postgres', url: input.url, memory: input.memory };
  const args = [...targetArgs(target), '--json', '--tz', 'UTC', 'ingest', input.exportPath];
  const flags = ['--llm', `fake:${input.script}`, '--concurrency', '1', '--consolidate-every', '0'];
  // The first worker imports and starts extracting; the others start once it has applied a batch, so they find
  // the conversations imported and the extraction taken (as a second terminal would).
  const started = performance.now();
  const first = runPieOk({ args: [...args, ...flags], env: NO_MODEL_ENV });
  const others: Promise<PieRun>[] = [];
  if (input.workers > 1) {
    while ((await doneBatches(input.url, input.memory)) === 0) await new Promise((r) => setTimeout(r, 100));
    for (let w = 1; w < input.workers; w++) others.push(runPieOk({ args: [...args, ...flags], env: NO_MODEL_ENV }));
  }
  const runs = [await first, ...(await Promise.all(others))];
  const wallMs = performance.now() - started;
  const reports = runs.map(
    (r) => JSON.parse(r.stdout) as { extraction: { usage: { calls: number }; shared: { preparedForOthers: number } } },
  );
  const store = await openTarget(target);
  try {
    const s = await store.stats();
    return {
      wallMs,
      calls: reports.reduce((n, r) => n + r.extraction.usage.calls, 0),
      prepared: reports.reduce((n, r) => n + r.extraction.shared.preparedForOthers, 0),
      counts: `${plural(s.entities, 'entity', 'entities')}, ${plural(s.transitions, 'transition')}, ${plural(s.relationships, 'relationship')}`,
    };
  } finally {
    await store.close();
  }
}

/**
 * `npm run bench -- import --store postgres [--pg-url URL] [--workers-only]`: the spec-scale export's import and
 * offline extraction into SQLite and into PostgreSQL in one run; then 1 and 2 `pie ingest` workers on one
 * PostgreSQL memory with a fake model that answers after 2 s (target #18: 2 workers ≥ 1.7× one).
 */
export async function benchImportPostgres(input: { pgUrl: string | undefined; args: string[] }): Promise<void> {
  const workersOnly = input.args.includes('--workers-only');
  const unknown = input.args.filter((a) => a !== '--workers-only');
  if (unknown.length > 0)
    throw new Error(`import --store postgres takes only --workers-only (got ${unknown.join(' ')})`);
  const server = await benchServer({ url: input.pgUrl });
  try {
    if (!workersOnly) await benchSpecImport(server);
    await benchWorkers(server);
  } finally {
    await server.stop();
  }
}

async function benchSpecImport(server: BenchServer): Promise<void> {
  const { path: exportPath, bytes } = await ensureSpecExport();
  await dropMemory(server.url, 'bench_import');
  const sqlite: Target = { kind: 'sqlite', db: freshDb({ name: 'import-pg-compare' }) };
  const postgres: Target = { kind: 'postgres', url: server.url, memory: 'bench_import' };
  const rows = [
    ...(await importRows('SQLite', sqlite, exportPath, bytes)),
    ...(await importRows('PostgreSQL', postgres, exportPath, bytes)),
  ];
  writeSection({
    name: 'import-postgres',
    markdown: [
      '## Import at spec scale: PostgreSQL beside SQLite',
      '',
      `Command: \`npm run bench -- import --store postgres\`. ${machineLine()}. Server: ${server.label}.`,
      '',
      "The import benchmark's runs (the built `pie` CLI as a child process, the spec-scale synthetic export, " +
        '`--limit 1` to time the import stage, then the offline extraction of the rest) into a fresh SQLite file and ' +
        'into a fresh PostgreSQL memory (`--db postgres://… --memory bench_import`). MB/s is computed on the wall ' +
        "time less the extraction stage (from the run record). Peak RSS is the `pie` process; the server's memory " +
        'is not counted.',
      '',
      mdTable(['store', 'run', 'new/updated/unchanged', 'wall s', 'MB/s', 'peak RSS MB'], rows),
    ].join('\n'),
  });
}

async function benchWorkers(server: BenchServer): Promise<void> {
  const workersExport = join(BENCH_TMP, `workers-${WORKER_DAYS}-days.json`);
  await writeSyntheticExport({ path: workersExport, shape: DAILY_SHAPE });
  const script = join(BENCH_TMP, 'workers-fake-model.json');
  writeFakeScript({ path: script });
  const levels: Workers[] = [];
  for (const workers of [1, 2]) {
    console.log(`${workers} worker(s), ${WORKER_DAYS} batches × ${DELAY_MS / 1000} s…`);
    const w = await ingestWorkers({
      url: server.url,
      memory: `bench_workers_${workers}`,
      exportPath: workersExport,
      script,
      workers,
    });
    console.log(`  ${seconds(w.wallMs)} s, ${w.calls} model calls`);
    levels.push(w);
  }
  const [one, two] = levels as [Workers, Workers];
  const speedup = one.wallMs / two.wallMs;
  writeSection({
    name: 'ingest-workers-postgres',
    markdown: [
      '## Two ingest workers on one PostgreSQL memory',
      '',
      `Command: \`npm run bench -- import --store postgres\` (or with \`--workers-only\`). ${machineLine()}. ` +
        `Server: ${server.label}.`,
      '',
      `A synthetic export of ${WORKER_DAYS} short conversations on consecutive days (${WORKER_DAYS} daily batches), ` +
        'then 1 or 2 `pie ingest --llm fake:<script> --concurrency 1` processes on a fresh memory (the second ' +
        'started once the first has applied its first batch; wall time from the first start to the last exit), ' +
        `the fake model answering every batch after ${DELAY_MS / 1000} s. With two, one holds ` +
        'the extraction lease and applies the batches in order; the other extracts batches ahead for it under a ' +
        'batch lease (src/ingest/help.ts) and the first takes those results instead of calling the model.',
      '',
      mdTable(
        ['workers', 'wall s', 'model calls (all workers)', 'batches prepared by the helper', 'world after'],
        levels.map((w, i) => [String(i + 1), seconds(w.wallMs), String(w.calls), String(w.prepared), w.counts]),
      ),
      '',
      `Target (#18): 2 workers ≥ 1.7× one: ${speedup >= 1.7 ? 'met' : 'NOT met'} (${speedup.toFixed(2)}×). ` +
        (one.counts === two.counts ? 'Both runs leave the same world counts.' : 'The world counts DIFFER.') +
        (two.calls === WORKER_DAYS
          ? ' No batch was sent to the model twice.'
          : ` ${two.calls} model calls for ${WORKER_DAYS} batches.`),
    ].join('\n'),
  });
}
