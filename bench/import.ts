import { statSync } from 'node:fs';
import { runPieOk, type PieRun } from './child.js';
import { SPEC_SCALE } from './generate/chatgpt-export.js';
import { parseIngestJson, type IngestJson } from './ingest-json.js';
import { machineLine, mdTable, writeSection } from './report.js';
import { readRunRecord } from './run-record.js';
import { ensureSpecExport, freshDb } from './workspace.js';

interface Measured {
  run: PieRun;
  report: IngestJson;
  extractionMs: number;
}

async function ingest(input: { db: string; exportPath: string; limit?: number }): Promise<Measured> {
  const limit = input.limit === undefined ? [] : ['--limit', String(input.limit)];
  const args = ['--db', input.db, '--json', '--tz', 'UTC', 'ingest', input.exportPath, '--extractor', 'offline'];
  const run = await runPieOk({ args: [...args, ...limit] });
  const report = parseIngestJson({ stdout: run.stdout });
  const { extractionMs } = readRunRecord({ db: input.db, runId: report.extraction.runId });
  return { run, report, extractionMs };
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1);

/**
 * `npm run bench -- import`: the spec-scale synthetic ChatGPT export through the real CLI. `pie ingest` imports and
 * then extracts, so the import stage is measured with `--limit 1` (the import of every conversation plus the offline
 * extraction of a single one, timed apart from the run record): into an empty database, then again (the re-import
 * must find every conversation unchanged). A third run extracts the remaining conversations with the offline rules
 * and reports their throughput. Targets for the import: ≤ 30 s, ≤ 1 GB peak RSS.
 */
export async function benchImport(): Promise<void> {
  const { path: exportPath, bytes } = await ensureSpecExport();
  const db = freshDb({ name: 'import-bench' });
  const importRows: string[][] = [];
  for (const label of ['first import (empty database)', 're-import (nothing changes)']) {
    const m = await ingest({ db, exportPath, limit: 1 });
    const o = m.report.import.outcomes;
    if (label.startsWith('re-import') && (o.inserted !== 0 || o.updated !== 0)) {
      throw new Error(`the re-import changed conversations: ${JSON.stringify(o)}`);
    }
    const importMs = m.run.wallMs - m.extractionMs;
    importRows.push([
      label,
      String(m.report.import.conversations),
      String(m.report.import.turns),
      `${o.inserted}/${o.updated}/${o.unchanged}`,
      seconds(m.run.wallMs),
      String(Math.round(m.extractionMs)),
      (bytes / 1e6 / (importMs / 1000)).toFixed(1),
      m.run.maxRssMb.toFixed(0),
    ]);
    console.log(`${label}: ${seconds(m.run.wallMs)} s, peak RSS ${m.run.maxRssMb.toFixed(0)} MB`);
  }
  const dbMb = statSync(db).size / 1e6;

  console.log('Offline extraction of the remaining conversations (a few minutes)…');
  const x = await ingest({ db, exportPath });
  const b = x.report.extraction.batches;
  if (b.failed > 0 || b.notStarted > 0) throw new Error(`offline extraction incomplete: ${JSON.stringify(b)}`);
  const xs = x.extractionMs / 1000;
  const extractRow = [
    String(b.done),
    String(x.report.extraction.episodes),
    seconds(x.extractionMs),
    (b.done / xs).toFixed(1),
    (x.report.extraction.episodes / xs).toFixed(1),
    seconds(x.run.wallMs),
    seconds(x.run.cpuMs),
    x.run.maxRssMb.toFixed(0),
  ];
  console.log(`offline extraction: ${b.done} batches in ${xs.toFixed(1)} s, peak RSS ${x.run.maxRssMb.toFixed(0)} MB`);

  writeSection({
    name: 'import',
    markdown: [
      '## Import at spec scale',
      '',
      `Command: \`npm run bench -- import\`. Data: synthetic ChatGPT export from bench/generate/chatgpt-export.ts ` +
        `(${SPEC_SCALE.conversations} conversations, ~41k messages, 62M characters of text: ~16M tokens at 4 characters a token, 11.3M o200k tokens as measured by the dry-run benchmark; ${(bytes / 1e6).toFixed(0)} MB of JSON). ` +
        `The built \`pie\` CLI runs as a child process (\`pie --tz UTC --json ingest <export> --extractor offline\`); ` +
        `peak RSS is that process's maxRSS. ${machineLine()}.`,
      '',
      '### Import stage',
      '',
      '`pie ingest` imports, then extracts. To time the import, both runs pass `--limit 1`: every conversation is ' +
        'imported, then the offline rules extract only the earliest waiting one. "extract ms" is that extraction, ' +
        'read from the run record (ingest_runs.started_at → finished_at); MB/s is computed on wall − extract.',
      '',
      mdTable(
        ['run', 'conversations', 'turns', 'new/updated/unchanged', 'wall s', 'extract ms', 'MB/s', 'peak RSS MB'],
        importRows,
      ),
      '',
      `Targets (issue: foundation): ≤ 30 s and ≤ 1 GB peak RSS on a 2-core machine. Database size after import: ${dbMb.toFixed(0)} MB.`,
      '',
      '### Offline extraction throughput',
      '',
      'A third run on the same database without `--limit`: the import finds everything unchanged, then the offline ' +
        'rules extract all remaining conversations in daily batches (concurrency 1). "extract s" is the run record; ' +
        '"wall s" and CPU cover the whole process (import check, batch planning, extraction).',
      '',
      mdTable(
        ['batches', 'conversations', 'extract s', 'batches/s', 'conversations/s', 'wall s', 'CPU s', 'peak RSS MB'],
        [extractRow],
      ),
    ].join('\n'),
  });
}
