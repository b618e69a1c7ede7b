import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPieOk } from './child.js';
import { writeSyntheticExport, type ExportShape } from './generate/chatgpt-export.js';
import { parseIngestJson } from './ingest-json.js';
import { machineLine, mdTable, writeSection } from './report.js';
import { readRunRecord } from './run-record.js';
import { BENCH_TMP, freshDb, NO_MODEL_ENV, removeDb } from './workspace.js';

export const DAYS = 200;
export const DELAY_MS = 2_000;
const LEVELS = [1, 4, 8] as const;
const DAY_MS = 86_400_000;

/** One short conversation a day for 200 days (each starts within the first hour of its UTC day): 200 daily batches. */
export const DAILY_SHAPE: ExportShape = {
  conversations: DAYS,
  userMessages: 2 * DAYS,
  assistantMessages: 2 * DAYS,
  textChars: 4 * DAYS * 600,
  start: Date.UTC(2024, 0, 1),
  end: Date.UTC(2024, 0, 1) + DAYS * DAY_MS,
  seed: 7,
};

/** A fake model (`--llm fake:<file>`) that answers every extract-batch call after DELAY_MS with a small valid result. */
export function writeFakeScript(input: { path: string }): void {
  const script = {
    delayMs: DELAY_MS,
    prompts: {
      'extract-batch@3': [{ response: { entities: [{ name: 'Topic', type: 'concept' }], summary: 'x' } }],
      'verify-entity@1': [{ response: { same: true, reason: 'benchmark' } }],
    },
  };
  writeFileSync(input.path, JSON.stringify(script));
}

interface Level {
  concurrency: number;
  calls: number;
  wallMs: number;
  extractionMs: number;
  cpuMs: number;
  maxRssMb: number;
}

/**
 * `npm run bench -- concurrency`: 200 daily batches through a fake model that answers after a fixed 2 s, with
 * `--concurrency` 1, 4 and 8; each run uses a fresh database (the response cache keys on the prompt, so a reused
 * database would answer from cache). Target: 4 in flight ≥ 3.5× faster than 1.
 */
export async function benchConcurrency(): Promise<void> {
  const exportPath = join(BENCH_TMP, 'concurrency-200-days.json');
  const scriptPath = join(BENCH_TMP, 'concurrency-fake-model.json');
  await writeSyntheticExport({ path: exportPath, shape: DAILY_SHAPE });
  writeFakeScript({ path: scriptPath });
  const levels: Level[] = [];
  for (const concurrency of LEVELS) {
    console.log(
      `--concurrency ${concurrency} (ideal ${((DAYS * DELAY_MS) / concurrency / 1000).toFixed(0)} s of model time)…`,
    );
    const level = await runLevel({ exportPath, scriptPath, concurrency });
    console.log(`  ${(level.wallMs / 1000).toFixed(1)} s wall, ${(level.extractionMs / 1000).toFixed(1)} s extraction`);
    levels.push(level);
  }
  writeSection({ name: 'concurrency', markdown: render({ levels }) });
}

async function runLevel(input: { exportPath: string; scriptPath: string; concurrency: number }): Promise<Level> {
  const db = freshDb({ name: `concurrency-${input.concurrency}` });
  const args = ['--db', db, '--json', '--tz', 'UTC', 'ingest', input.exportPath];
  const run = await runPieOk({
    args: [...args, '--llm', `fake:${input.scriptPath}`, '--concurrency', String(input.concurrency)],
    env: NO_MODEL_ENV,
  });
  const x = parseIngestJson({ stdout: run.stdout }).extraction;
  // Every batch must have been extracted by a model call, none answered from the response cache.
  if (x.batches.planned !== DAYS || x.batches.done !== DAYS || x.usage.cachedCalls !== 0) {
    throw new Error(`--concurrency ${input.concurrency}: expected ${DAYS} fresh batches, got ${JSON.stringify(x)}`);
  }
  const { extractionMs } = readRunRecord({ db, runId: x.runId });
  removeDb({ db });
  return {
    concurrency: input.concurrency,
    calls: x.usage.calls,
    wallMs: run.wallMs,
    extractionMs,
    cpuMs: run.cpuMs,
    maxRssMb: run.maxRssMb,
  };
}

function render(input: { levels: readonly Level[] }): string {
  const base = input.levels.find((l) => l.concurrency === 1);
  if (!base) throw new Error('no --concurrency 1 run to compare with');
  const rows = input.levels.map((l) => [
    String(l.concurrency),
    String(l.calls),
    (l.wallMs / 1000).toFixed(1),
    (l.extractionMs / 1000).toFixed(1),
    ((DAYS * DELAY_MS) / l.concurrency / 1000).toFixed(0),
    `${(base.wallMs / l.wallMs).toFixed(2)}×`,
    `${(base.extractionMs / l.extractionMs).toFixed(2)}×`,
    (l.cpuMs / 1000).toFixed(1),
    l.maxRssMb.toFixed(0),
  ]);
  const four = input.levels.find((l) => l.concurrency === 4);
  const speedup = four ? base.wallMs / four.wallMs : 0;
  return [
    '## Extraction concurrency',
    '',
    `Command: \`npm run bench -- concurrency\`. Data: a synthetic ChatGPT export of ${DAYS} short conversations on ` +
      `${DAYS} consecutive days (bench/generate/chatgpt-export.ts with a small shape), so ${DAYS} daily batches. Model: ` +
      `the scripted fake loaded from a file (\`--llm fake:<script.json>\`) answering every extract-batch call after a ` +
      `fixed ${DELAY_MS / 1000} s with a one-entity result. Each level runs \`pie --tz UTC --json ingest <export> --llm ` +
      `fake:<script> --concurrency N\` (the built CLI as a child process) on a fresh database, so no answer comes ` +
      `from the response cache; every run extracted all ${DAYS} batches with ${DAYS} model calls. "extract s" is the ` +
      `run record (ingest_runs.started_at → finished_at); "wall s" and CPU cover the whole process. ${machineLine()}.`,
    '',
    mdTable(
      [
        'concurrency',
        'model calls',
        'wall s',
        'extract s',
        'ideal s',
        'speed-up (wall)',
        'speed-up (extract)',
        'CPU s',
        'peak RSS MB',
      ],
      rows,
    ),
    '',
    `Target: 4 in flight ≥ 3.5× faster than 1: ${speedup >= 3.5 ? 'met' : 'MISSED'} (${speedup.toFixed(2)}× on wall time). ` +
      '"ideal s" is the model time alone (batches × 2 s / concurrency); the rest is the import, planning, rendering, ' +
      'validation and applying each result in order.',
  ].join('\n');
}
