import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { ActionRunner } from '../run.js';
import { localDateTime, num } from '../format.js';
import { parsePositiveInt } from '../args.js';

interface SearchFlags {
  limit: string;
}

export function registerSearch(program: Command, run: ActionRunner): void {
  program
    .command('search')
    .description('full-text search (BM25) over conversation turns and episode titles and summaries, with snippets')
    .argument('<text...>', 'words to look for')
    .option('--limit <n>', 'how many results', '10')
    .action((words: string[], flags: SearchFlags) => run((ctx) => search(ctx, words.join(' '), flags)));
}

async function search(ctx: CommandContext, text: string, flags: SearchFlags): Promise<void> {
  const limit = parsePositiveInt(flags.limit, '--limit');
  const services = await ctx.services({ readonly: true });
  const color = ctx.io.interactive && !ctx.config.json;
  const highlight: [string, string] = color ? ['\u001b[1m', '\u001b[22m'] : ['«', '»'];
  const [episodes, turns] = await Promise.all([
    services.store.search.episodes({ text, limit, highlight }),
    services.store.search.turns({ text, limit, highlight }),
  ]);
  const tz = ctx.config.tz;
  const lines: string[] = [];
  if (episodes.length > 0) {
    lines.push('Episodes:');
    for (const e of episodes) lines.push(`  ${localDateTime(e.time, tz)}  ${e.title}`, `      ${e.snippet}`);
  }
  if (turns.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push('Turns:');
    for (const t of turns) {
      const when = localDateTime(t.time ?? t.episodeTime, tz);
      lines.push(`  ${when}  ${t.episodeTitle}  (${t.role}, turn ${num(t.seq + 1)})`, `      ${t.snippet}`);
    }
  }
  if (lines.length === 0) lines.push(`Nothing matches "${text}".`);
  ctx.emit({ text: lines.join('\n'), json: { query: text, episodes, turns } });
}
