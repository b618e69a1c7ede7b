import type { Command } from 'commander';
import { createEmbedderFromEnv } from '../../../compose.js';
import { stateText } from '../../../compile/timeline.js';
import type { DescribedItem } from '../../../query/items.js';
import { searchWorld } from '../../../query/search.js';
import { parsePositiveInt } from '../args.js';
import type { CommandContext } from '../context.js';
import { clip, localDate, num } from '../format.js';
import type { ActionRunner } from '../run.js';

interface SearchFlags {
  limit: string;
}

export function registerSearch(program: Command, run: ActionRunner): void {
  program
    .command('search')
    .description(
      'hybrid search over entities, state changes, conversations and turns (full-text BM25, time references, graph neighbours, vectors when PIE_EMBEDDER is set), best first',
    )
    .argument('<text...>', 'words to look for (time references like "last spring" narrow it)')
    .option('--limit <n>', 'how many results', '10')
    .action((words: string[], flags: SearchFlags) => run((ctx) => search(ctx, words.join(' '), flags)));
}

async function search(ctx: CommandContext, text: string, flags: SearchFlags): Promise<void> {
  const limit = parsePositiveInt(flags.limit, '--limit');
  const services = await ctx.services({ existing: true });
  const result = await searchWorld({
    store: services.store,
    text,
    limit,
    now: services.clock.now(),
    tz: ctx.config.tz,
    embedder: createEmbedderFromEnv(services.env),
    recordAccess: true,
    onWarning: (m) => ctx.io.stderr(`pie: ${m}\n`),
  });
  const tz = ctx.config.tz;
  const lines = result.items.map((item) => itemLines(item, tz).join('\n'));
  const out = lines.length > 0 ? lines.join('\n') : `Nothing matches "${text}".`;
  ctx.emit({
    text: out,
    json: {
      query: text,
      lanes: result.lanes,
      results: result.items.map((i) => ({ ...i, ...(i.kind === 'turn' ? { turn: i.seq } : {}) })),
    },
  });
}

function itemLines(item: DescribedItem, tz: string): string[] {
  const via = `  (${item.lanes.join(', ')})`;
  switch (item.kind) {
    case 'entity': {
      const state = stateText(item.entity.state);
      return [
        `${item.entity.name}  [${item.entity.type}]  last seen ${localDate(item.entity.lastSeen, tz)}${via}`,
        ...(state ? [`    ${clip(state, 110)}`] : []),
      ];
    }
    case 'transition':
      return [
        `${localDate(item.transition.eventTime, tz)}  ${item.entity?.name ?? '?'}: ${clip(item.transition.summary, 90)}${via}`,
        ...(item.episode ? [`    from “${item.episode.title}”`] : []),
      ];
    case 'episode':
      return [
        `${localDate(item.episode.createdAt, tz)}  “${item.episode.title}”${via}`,
        ...(item.snippet
          ? [`    ${item.snippet}`]
          : item.episode.summary
            ? [`    ${clip(item.episode.summary, 110)}`]
            : []),
      ];
    case 'turn':
      return [
        `${localDate(item.episode.createdAt, tz)}  “${item.episode.title}”, turn ${num(item.seq + 1)}${via}`,
        ...(item.snippet ? [`    ${item.snippet}`] : []),
      ];
  }
}
