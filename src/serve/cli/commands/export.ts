import type { Command } from 'commander';
import { exportMarkdown } from '../../../export/markdown.js';
import { exportObsidian } from '../../../export/obsidian.js';
import type { SyncReport } from '../../../export/sync.js';
import type { CommandContext } from '../context.js';
import { num, plural } from '../format.js';
import type { ActionRunner } from '../run.js';

export function registerExport(program: Command, run: ActionRunner): void {
  const exp = program.command('export').description('write the memory to files people already use');
  exp
    .command('markdown')
    .description('pyramid memory as agent-workspace files: SOUL.md, USER.md, TOOLS.md, models/<name>.md, MEMORY.md')
    .argument('<dir>', 'workspace directory (created when missing); unchanged files are not rewritten')
    .action((dir: string) => run((ctx) => markdown(ctx, dir)));
  exp
    .command('obsidian')
    .description('an Obsidian vault: one note per entity (front matter, wikilinks, period, timeline), period notes')
    .argument('<dir>', 'vault directory (created when missing); unchanged notes are not rewritten')
    .action((dir: string) => run((ctx) => obsidian(ctx, dir)));
}

export function reportText(what: string, r: SyncReport): string {
  const lines = [
    `${what} in ${r.dir}: ${num(r.written.length)} files written, ${num(r.unchanged)} unchanged${r.removed.length > 0 ? `, ${num(r.removed.length)} removed (no longer in the world)` : ''}.`,
  ];
  if (r.kept.length > 0) {
    lines.push(
      `Kept ${num(r.kept.length)} files you edited although PIE no longer produces them: ${r.kept.join(', ')}.`,
    );
  }
  if (r.notOurs.length > 0) {
    lines.push(
      `Left ${plural(r.notOurs.length, 'file')} alone that PIE did not write (move or rename them to export these): ${r.notOurs.join(', ')}.`,
    );
  }
  return lines.join('\n');
}

async function obsidian(ctx: CommandContext, dir: string): Promise<void> {
  const services = await ctx.services({ readonly: true });
  const report = await exportObsidian({ store: services.store, dir, tz: ctx.config.tz });
  ctx.emit({ text: reportText('Obsidian vault', report), json: report });
}

async function markdown(ctx: CommandContext, dir: string): Promise<void> {
  const services = await ctx.services({ readonly: true });
  const report = await exportMarkdown({ store: services.store, dir, tz: ctx.config.tz });
  ctx.emit({ text: reportText('Memory files', report), json: report });
}
