import { fileURLToPath } from 'node:url';
import { createTiktokenTokenizer } from '../src/adapters/tokenizer/tiktoken.js';
import { runPieOk, type PieRun } from './child.js';
import { percentile } from './query.js';
import { machineLine, mdTable, writeSection } from './report.js';
import { freshDb, removeDb } from './workspace.js';

const SAMPLE = fileURLToPath(new URL('../sample/chatgpt-export.json', import.meta.url));
const RUNS = 7;
const BUILDS = 5;

/** The commands timed, each run as a user runs it: a new `pie` process against the sample's memory. */
function commands(db: string): { label: string; args: string[] }[] {
  const on = ['--db', db, '--tz', 'UTC', '--now', '2025-11-01'];
  return [
    { label: 'pie --help', args: ['--help'] },
    { label: 'pie stats', args: [...on, 'stats'] },
    { label: 'pie search Tidepool', args: [...on, 'search', 'Tidepool'] },
    { label: 'pie ask --context-only (4k tokens)', args: [...on, 'ask', 'What is Tidepool?', '--context-only'] },
    {
      label: 'pie ask --context-only --context-tokens 8000',
      args: [
        ...on,
        'ask',
        'How has my thinking about knowledge graphs evolved?',
        '--context-only',
        '--context-tokens',
        '8000',
      ],
    },
  ];
}

/**
 * `npm run bench -- startup`: how long a command takes from a shell, start-up included (loading modules, opening
 * the memory, the tokenizer's rank table), on the bundled sample ingested with the offline rules. Each command runs
 * once to warm the page cache, then RUNS times; and the tokenizer is built BUILDS times in this process.
 */
export async function benchStartup(): Promise<void> {
  const db = freshDb({ name: 'startup-sample' });
  console.log('Ingesting the sample…');
  await runPieOk({ args: ['--db', db, '--tz', 'UTC', 'ingest', SAMPLE, '--extractor', 'offline'] });
  const rows: string[][] = [];
  for (const { label, args } of commands(db)) {
    await runPieOk({ args });
    const runs: PieRun[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await runPieOk({ args }));
    const wall = runs.map((r) => r.wallMs);
    const cpu = runs.map((r) => r.cpuMs);
    rows.push([
      label,
      String(RUNS),
      (percentile(wall, 50) / 1000).toFixed(2),
      (Math.max(...wall) / 1000).toFixed(2),
      (percentile(cpu, 50) / 1000).toFixed(2),
      percentile(
        runs.map((r) => r.maxRssMb),
        50,
      ).toFixed(0),
    ]);
    console.log(rows.at(-1)?.join(' | '));
  }
  removeDb({ db });
  const builds: number[] = [];
  for (let i = 0; i < BUILDS; i++) {
    const started = performance.now();
    createTiktokenTokenizer().count('warm');
    builds.push(performance.now() - started);
  }
  const header = ['command', 'runs', 'median wall s', 'max wall s', 'median CPU s', 'median peak RSS MB'];
  writeSection({
    name: 'startup',
    markdown: [
      '## Command start-up on the sample',
      '',
      `Command: \`npm run bench -- startup\`. The built CLI runs as a child process (\`node dist/bin/pie.js …\`), as a user runs it from a shell: loading its modules, opening the memory (the bundled sample ingested with the offline rules) and, for \`ask\`, reading the tokenizer's rank table are all counted. Each command runs once to warm the page cache, then ${RUNS} times. CPU is user + system time of the process (module compilation and garbage collection use more than one thread, so it can exceed the wall time). ${machineLine()}.`,
      '',
      mdTable(header, rows),
      '',
      `Building the o200k_base tokenizer in-process (reading its 200k-token rank table; src/adapters/tokenizer/bpe.ts): median ${percentile(builds, 50).toFixed(0)} ms of ${BUILDS}.`,
    ].join('\n'),
  });
  console.log(mdTable(header, rows));
}
