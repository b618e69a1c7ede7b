import { runPieOk, type PieRun } from './child.js';
import { machineLine, mdTable, writeSection } from './report.js';
import { ensureSpecExport, freshDb, NO_MODEL_ENV } from './workspace.js';

/** Issue: redaction adds at most this share to a dry run. */
const TARGET_SHARE = 0.1;
const RUNS = 3;

function median(runs: readonly PieRun[]): PieRun {
  const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  return sorted[Math.floor(sorted.length / 2)] as PieRun;
}

interface DryRedaction {
  extraction: { redaction: { categories: string[]; counts: Record<string, number> } };
}

/**
 * `npm run bench -- redaction`: the dry run of the spec-scale export twice, as child processes on fresh databases,
 * once with PIE_REDACT=off and once with the default (every category: the plan is priced for a cloud model), so
 * the difference is what finding the secrets and personal data in every turn costs. What it found in the synthetic
 * export is reported too.
 */
export async function benchRedaction(): Promise<void> {
  const { path } = await ensureSpecExport();
  const run = async (redact: string): Promise<PieRun> => {
    const db = freshDb({ name: `redaction-${redact}` });
    console.log(`Dry run with PIE_REDACT=${redact} (one to two minutes)…`);
    return runPieOk({
      args: ['--db', db, '--json', '--tz', 'UTC', 'ingest', path, '--dry-run'],
      env: { ...NO_MODEL_ENV, PIE_REDACT: redact },
    });
  };
  // Alternated, three of each; the median run of each counts (one run of a few seconds varies by ±5 %).
  const offs: PieRun[] = [];
  const ons: PieRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    offs.push(await run('off'));
    ons.push(await run('auto'));
  }
  const off = median(offs);
  const on = median(ons);
  const found = (JSON.parse(on.stdout) as DryRedaction).extraction.redaction.counts;
  const share = (on.wallMs - off.wallMs) / off.wallMs;
  const verdict = share <= TARGET_SHARE ? 'met' : 'MISSED';
  const s = (ms: number): string => (ms / 1000).toFixed(1);
  writeSection({
    name: 'redaction',
    markdown: [
      '## Redaction cost on a dry run at spec scale',
      '',
      `Command: \`npm run bench -- redaction\`: \`pie --tz UTC --json ingest <spec-scale export> --dry-run\` as a child process on a fresh database, three times alternated with \`PIE_REDACT=off\` and with the default (the median run of each is shown) (the plan is priced for openai:gpt-5-mini, a cloud model, so every category is looked for in every turn and reported). ${machineLine()}.`,
      '',
      mdTable(
        ['PIE_REDACT', 'wall s', 'CPU s', 'peak RSS MB'],
        [
          ['off', s(off.wallMs), s(off.cpuMs), String(Math.round(off.maxRssMb))],
          ['auto (every category)', s(on.wallMs), s(on.cpuMs), String(Math.round(on.maxRssMb))],
        ],
      ),
      '',
      `Redaction adds ${(share * 100).toFixed(1)} % to the dry run (target ≤ ${TARGET_SHARE * 100} %: ${verdict}). Found in the synthetic export: ${
        Object.entries(found)
          .map(([c, n]) => `${c} ${n}`)
          .join(', ') || 'nothing'
      }.`,
    ].join('\n'),
  });
  console.log(`off ${s(off.wallMs)} s, auto ${s(on.wallMs)} s: +${(share * 100).toFixed(1)} %`);
}
