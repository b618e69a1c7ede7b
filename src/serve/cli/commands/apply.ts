import type { Command } from 'commander';
import { resolve } from 'node:path';
import { PieError } from '../../../domain/errors.js';
import { applyResultsFile } from '../../../ingest/apply-file.js';
import type { CommandContext } from '../context.js';
import { countList, num, plural } from '../format.js';
import { createProgress } from '../io.js';
import type { ActionRunner } from '../run.js';

export function registerApply(program: Command, run: ActionRunner): void {
  program
    .command('apply')
    .description('apply pre-computed ExtractionResults (one JSON object per line), e.g. from a provider batch API')
    .argument('<file.jsonl>', 'results file')
    .action((path: string) => run((ctx) => apply(ctx, path)));
}

async function apply(ctx: CommandContext, path: string): Promise<void> {
  const services = await ctx.services();
  const progress = createProgress({ io: ctx.io, enabled: !ctx.config.json });
  const report = await applyResultsFile({
    store: services.store,
    path: resolve(path),
    clock: services.clock,
    newId: services.newId,
    onProgress: (done, total) => progress.update(`Applying ${num(done)}/${num(total)}…`),
  });
  progress.done();
  const lines = [
    `Applied ${plural(report.applied, 'result')} of ${num(report.lines)} lines from ${path}.`,
    `Changes: ${countList(report.mutations)}.`,
  ];
  for (const bad of report.invalid.slice(0, 20)) lines.push(`  - line ${bad.line} skipped: ${bad.reason}`);
  for (const bad of report.failed.slice(0, 20)) lines.push(`  - line ${bad.line} failed: ${bad.reason}`);
  ctx.emit({ text: lines.join('\n'), json: report });
  const bad = report.invalid.length + report.failed.length;
  if (bad > 0) {
    throw new PieError(
      'INVALID_DATA',
      `${plural(bad, 'line')} of ${path} could not be applied (listed above); fix them and run pie apply again.`,
    );
  }
}
