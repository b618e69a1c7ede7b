import type { Command } from 'commander';
import { PieError } from '../../../domain/errors.js';
import type { CommandContext } from '../context.js';
import { clip, localDate, num, table } from '../format.js';
import type { ActionRunner } from '../run.js';

const KINDS = ['deep', 'mega'];

export function registerInsights(program: Command, run: ActionRunner): void {
  program
    .command('insights')
    .description('insights from dreaming (pie sleep --scope full with a model), newest first')
    .option('--kind <kind>', `only one kind: ${KINDS.join(' | ')}`)
    .option('--limit <n>', 'at most this many', '50')
    .action((flags: { kind?: string; limit: string }) => run((ctx) => insights(ctx, flags)));
}

async function insights(ctx: CommandContext, flags: { kind?: string; limit: string }): Promise<void> {
  const limit = Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1) {
    throw new PieError('INVALID_ARGUMENT', `--limit must be a whole number of at least 1, not "${flags.limit}".`);
  }
  if (flags.kind !== undefined && !KINDS.includes(flags.kind)) {
    throw new PieError('INVALID_ARGUMENT', `--kind must be one of ${KINDS.join(', ')}, not "${flags.kind}".`);
  }
  const { store } = await ctx.services({ readonly: true });
  const kind = flags.kind === undefined ? {} : { kind: flags.kind };
  const list = await store.insights.list({ ...kind, limit });
  const total = await store.insights.count(kind);
  const names = new Map(
    (await store.entities.getMany([...new Set(list.flatMap((i) => i.evidence))])).map((e) => [e.id, e.name]),
  );
  const text =
    list.length === 0
      ? 'No insights yet; pie sleep --scope full with a model (--llm provider:model) dreams them up.'
      : table([
          ['insight', 'kind', 'about', 'confidence', 'made'],
          ...list.map((i) => [
            clip(i.text, 80),
            i.kind,
            clip(i.evidence.map((id) => names.get(id) ?? id).join(', '), 40),
            i.confidence.toFixed(2),
            localDate(i.createdAt, ctx.config.tz),
          ]),
        ]) + (total > list.length ? `\n${num(list.length)} of ${num(total)} shown.` : '');
  const json = list.map((i) => ({ ...i, evidenceNames: i.evidence.map((id) => names.get(id) ?? null) }));
  ctx.emit({ text, json: { total, insights: json } });
}
