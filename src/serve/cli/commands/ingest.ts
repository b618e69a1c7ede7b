import type { Command } from 'commander';
import { IMPORT_FORMATS, type ImportFormat } from '../../../domain/conversation.js';
import { PieError } from '../../../domain/errors.js';
import { importConversations, planImport } from '../../../import/index.js';
import { runImportStage, type ImportReport } from '../../../ingest/import-stage.js';
import type { CommandContext } from '../context.js';
import { clip, countList, localDate, num, plural, table } from '../format.js';
import { createProgress } from '../io.js';

interface IngestFlags {
  format: string;
  dryRun?: boolean;
}

const FORMAT_LABELS: Record<ImportFormat, string> = {
  chatgpt: 'ChatGPT export',
  claude: 'Claude export',
  jsonl: 'JSONL chat log',
  markdown: 'markdown/text notes',
  locomo: 'LoCoMo benchmark file',
  longmemeval: 'LongMemEval benchmark file',
  memorybank: 'MemoryBank file',
};

export function registerIngest(
  program: Command,
  run: (action: (ctx: CommandContext) => Promise<void>) => Promise<void>,
): void {
  program
    .command('ingest')
    .description(
      'import a chat export or notes into the database (re-importing adds nothing; changed conversations are updated)',
    )
    .argument(
      '<path>',
      'ChatGPT/Claude export (.zip or conversations.json), JSONL log, notes file or folder, benchmark file',
    )
    .option('--format <format>', `input format: auto|${IMPORT_FORMATS.join('|')}`, 'auto')
    .option('--dry-run', 'show what would be imported, grouped in daily batches, without writing anything')
    .action((path: string, flags: IngestFlags) => run((ctx) => ingest(ctx, path, flags)));
}

async function ingest(ctx: CommandContext, path: string, flags: IngestFlags): Promise<void> {
  const format = parseFormat(flags.format);
  const plan = await planImport({ path, format });
  const services = await ctx.services();
  const progress = createProgress({ io: ctx.io, enabled: !ctx.config.json });
  const dryRun = flags.dryRun ?? false;
  const report = await runImportStage({
    store: services.store,
    events: importConversations({ path, format: plan.format, tz: ctx.config.tz }),
    clock: services.clock,
    tz: ctx.config.tz,
    dryRun,
    onProgress: (p) =>
      progress.update(`Importing… ${plural(p.conversations, 'conversation')}, ${plural(p.turns, 'turn')}`),
  });
  progress.done();
  const pendingExtraction = dryRun ? null : await services.store.episodes.count({ extraction: 'pending' });
  ctx.emit({
    text: renderReport({ report, label: plan.label, format: plan.format, tz: ctx.config.tz, pendingExtraction }),
    json: { input: plan.label, format: plan.format, ...report, pendingExtraction, stage: 'import' },
  });
}

function parseFormat(value: string): ImportFormat | 'auto' {
  if (value === 'auto' || (IMPORT_FORMATS as readonly string[]).includes(value)) return value as ImportFormat | 'auto';
  throw new PieError(
    'INVALID_ARGUMENT',
    `--format "${value}" is not known; use auto or one of ${IMPORT_FORMATS.join(', ')}.`,
  );
}

function renderReport(input: {
  report: ImportReport;
  label: string;
  format: ImportFormat;
  tz: string;
  pendingExtraction: number | null;
}): string {
  const { report, tz } = input;
  const lines: string[] = [`Read ${input.label} (${FORMAT_LABELS[input.format]}).`];
  const { inserted, updated, unchanged } = report.outcomes;
  const verb = report.dryRun ? 'Would import' : 'Imported';
  lines.push(
    `${verb} ${plural(report.conversations, 'conversation')}, ${plural(report.turns, 'turn')}: ` +
      `${num(inserted)} new, ${num(updated)} updated, ${num(unchanged)} unchanged.`,
  );
  if (report.firstAt !== null && report.lastAt !== null) {
    lines.push(`Time span: ${localDate(report.firstAt, tz)} to ${localDate(report.lastAt, tz)} (${tz}).`);
  }
  lines.push(`Left out of conversations: ${countList(report.dropped)}.`);
  if (report.skipped.length > 0) {
    lines.push(`Skipped ${plural(report.skipped.length, 'conversation')}:`);
    for (const s of report.skipped.slice(0, 20)) lines.push(`  - ${s.ref}: ${s.reason}`);
    if (report.skipped.length > 20) lines.push(`  … and ${num(report.skipped.length - 20)} more (see --json).`);
  }
  if (report.warnings.length > 0) {
    lines.push(`${plural(report.warnings.length, 'warning')}:`);
    for (const w of report.warnings.slice(0, 10)) lines.push(`  - ${w.ref}: ${w.reason}`);
    if (report.warnings.length > 10) lines.push(`  … and ${num(report.warnings.length - 10)} more (see --json).`);
  }
  if (report.days) {
    lines.push('', `Daily batches (${plural(report.days.length, 'day')}):`);
    lines.push(
      table(
        report.days.map((d) => [
          d.day,
          plural(d.conversations, 'conversation'),
          plural(d.turns, 'turn'),
          `${num(d.chars)} chars`,
          `new ${d.outcomes.inserted}, updated ${d.outcomes.updated}, unchanged ${d.outcomes.unchanged}`,
          clip(d.titles.join('; '), 60),
        ]),
        { indent: '  ' },
      ),
    );
    lines.push('', 'Dry run: nothing was written.');
  }
  if (input.pendingExtraction !== null) {
    lines.push(
      `Stopped after import: extraction into the world model is not built yet; ` +
        `${plural(input.pendingExtraction, 'episode')} wait for it.`,
    );
  }
  return lines.join('\n');
}
