import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

export const BENCHMARKS_MD = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

/**
 * Replaces (or appends) the section of docs/benchmarks.md between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`,
 * so each benchmark owns its section and re-running it updates its figures in place.
 */
export function writeSection(input: { name: string; markdown: string; file?: string }): void {
  const file = input.file ?? BENCHMARKS_MD;
  const begin = `<!-- bench:${input.name} -->`;
  const end = `<!-- /bench:${input.name} -->`;
  const block = `${begin}\n${input.markdown.trim()}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(begin);
  const stop = current.indexOf(end);
  const next =
    start >= 0 && stop > start
      ? current.slice(0, start) + block + current.slice(stop + end.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next.endsWith('\n') ? next : `${next}\n`);
}

/** The checked-out commit when the benchmark ran (the build in dist/ is assumed current), "+ local changes" when src/ differs. */
function buildRevision(): string {
  try {
    const git = (args: string[]): string => execFileSync('git', args, { encoding: 'utf8' }).trim();
    const head = git(['rev-parse', '--short', 'HEAD']);
    return git(['status', '--porcelain', '--', 'src']) === '' ? head : `${head} + local changes in src/`;
  } catch {
    return 'unknown revision';
  }
}

export function machineLine(): string {
  return (
    `Source at ${buildRevision()}; Node ${process.version}, ${process.platform}/${process.arch}, ${availableParallelism()} cores, ` +
    `run on ${new Date().toISOString().slice(0, 10)}, 1-minute load average ${(loadavg()[0] ?? 0).toFixed(1)} when written`
  );
}

const TITLE = '# Benchmarks';
const ABOUT_BEGIN = '<!-- bench:about -->';
const ABOUT_END = '<!-- /bench:about -->';

function aboutBlock(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return [
    ABOUT_BEGIN,
    'Figures measured by the programs under `bench/` (DESIGN.md §7: benchmarks print and write their figures; tests',
    'never assert on wall-clock time). Each benchmark owns one marked section below and rewrites it in place when run.',
    '',
    'Reproduce the performance figures with `npm run build && npm run bench -- <name>`, `<name>` one of `import`,',
    '`dry-run`, `concurrency`, `query`, `sleep`, `web` (sections below) and `kip` (written to docs/kip.md). The first three run',
    'the built CLI (`dist/bin/pie.js`) as a child process, so build first; generated data and databases go to `.bench-tmp/`',
    '(git-ignored). `pie bench scale` runs `import`, `dry-run` and `query` in turn. `query`, `import` and `sleep` take',
    '`--store postgres [--pg-url URL]` to run on PostgreSQL beside SQLite (a throwaway cluster from the Debian packages',
    'unless a URL is given).',
    '',
    'Reproduce the evaluation figures (docs/evaluation.md; data in `../shared/data` or `$PIE_BENCH_DATA`) with',
    '`pie bench locomo`, `pie bench longmemeval` (add `--data …/longmemeval_oracle.json --limit 100` for the oracle',
    'section), `pie bench tot`, `pie bench ablation` (one section per set: `--only locomo`, `longmemeval`, `tot`), each',
    'with `--report docs/benchmarks.md`; with a model, `pie bench locomo|longmemeval|tot --qa --llm provider:model',
    '--out results.jsonl --report docs/benchmarks.md` and `pie bench ablation --qa …`. Each section quotes its exact command.',
    '',
    `Machine of the latest run: ${availableParallelism()} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, ` +
      `Node ${process.version}, ${process.platform}/${process.arch}. It is a shared machine: other work may have ` +
      'run at the same time, so treat single figures as ±10–20 %; each section names its own run date.',
    ABOUT_END,
  ].join('\n');
}

/** Puts (or refreshes) the "about" block right under the title of docs/benchmarks.md, keeping every section. */
export function writeHeader(input: { file?: string } = {}): void {
  const file = input.file ?? BENCHMARKS_MD;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : `${TITLE}\n`;
  const start = current.indexOf(ABOUT_BEGIN);
  const stop = current.indexOf(ABOUT_END);
  const rest = start >= 0 && stop > start ? current.slice(0, start) + current.slice(stop + ABOUT_END.length) : current;
  const body = rest.startsWith(TITLE) ? rest.slice(TITLE.length) : rest;
  writeFileSync(file, `${TITLE}\n\n${aboutBlock()}\n\n${body.trim()}\n`);
}

export function mdTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
