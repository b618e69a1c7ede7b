import type { Command } from 'commander';
import { createQueryModel } from '../../../compose.js';
import { PieError } from '../../../domain/errors.js';
import { parseDateArgument } from '../../../domain/time.js';
import { getPyramid, observe, observeWorld, renderPyramid, summarize } from '../../../pyramid/index.js';
import type { MentalModel } from '../../../ports/pyramid-store.js';
import { parsePositiveInt } from '../args.js';
import type { CommandContext } from '../context.js';
import { localDate, localDateTime, num } from '../format.js';
import type { ActionRunner } from '../run.js';

function wholeNumber(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new PieError('INVALID_ARGUMENT', `${flag} must be a whole number from ${min} to ${max}, not "${value}".`);
  }
  return n;
}

export function registerPyramid(program: Command, run: ActionRunner): void {
  program
    .command('observe')
    .description('add an observation (one first-person sentence) to pyramid memory')
    .argument('[text...]', 'the observation, e.g. "User prefers vim keybindings"')
    .option('--importance <n>', '1 trivial, 5 normal, 7 notable, 10 critical', '5')
    .option('--at <date>', 'when it was true (default now)')
    .option('--from-world', 'add one observation per transition of the world model that has none yet')
    .action((words: string[], flags: { importance: string; at?: string; fromWorld?: boolean }) =>
      run((ctx) => observeCommand(ctx, words.join(' '), flags)),
    );
  program
    .command('observations')
    .description('list observations, newest first: [id] time (importance) [model] text')
    .option('--model <name>', 'only this mental model')
    .option('--unassigned', 'only observations without a model yet')
    .option('--limit <n>', 'how many', '50')
    .action((flags: { model?: string; unassigned?: boolean; limit: string }) => run((ctx) => observations(ctx, flags)));
  program
    .command('summarize')
    .description('assign observations to mental models and build the tiered summaries (tier N covers 3^N days)')
    .option('--tier <n>', 'only this tier (0: observations by day; N: from tier N-1)')
    .option('--llm <provider:model>', 'model for telegram-style summaries (default $PIE_LLM or an API key)')
    .option('--no-llm', 'deterministic summaries (the most important lines), even when a model is configured')
    .option('--no-world', 'do not first add observations for new transitions of the world model')
    .action((flags: { tier?: string; llm?: string | boolean; world: boolean }) =>
      run((ctx) => summarizeCommand(ctx, flags)),
    );
  program
    .command('summaries')
    .description('list summaries by tier')
    .option('--tier <n>', 'only this tier')
    .option('--model <name>', 'only this mental model')
    .option('--limit <n>', 'how many', '50')
    .action((flags: { tier?: string; model?: string; limit: string }) => run((ctx) => summaries(ctx, flags)));
  program
    .command('models')
    .description('list mental models: [*] name: description (* = base model)')
    .action(() => run(models));
  program
    .command('model')
    .description("a mental model's pyramid: the last 3 summaries of each tier")
    .argument('<name>', 'self, user, system or a discovered model')
    .action((name: string) => run((ctx) => modelCommand(ctx, name)));
}

async function observeCommand(
  ctx: CommandContext,
  text: string,
  flags: { importance: string; at?: string; fromWorld?: boolean },
): Promise<void> {
  const services = await ctx.services();
  const now = services.clock.now();
  if (flags.fromWorld === true) {
    if (text.trim() !== '') {
      throw new PieError('INVALID_ARGUMENT', 'Give either an observation text or --from-world, not both.');
    }
    const added = await observeWorld({ store: services.store, now });
    ctx.emit({ text: `Added ${num(added)} observations from the world model.`, json: { added } });
    return;
  }
  const importance = wholeNumber(flags.importance, '--importance', 1, 10);
  const time = flags.at === undefined ? now : parseDateArgument(flags.at, ctx.config.tz);
  const o = await observe({ store: services.store, text, importance, time, now, newId: services.newId });
  ctx.emit({
    text: `Observed [${o.importance}] ${o.text} (${o.id}); run pie summarize to file it under a model.`,
    json: o,
  });
}

async function modelNames(ctx: CommandContext): Promise<Map<string, MentalModel>> {
  const services = await ctx.services({ readonly: true });
  return new Map((await services.store.pyramid.models()).map((m) => [m.id, m]));
}

async function modelId(ctx: CommandContext, name: string | undefined): Promise<string | undefined> {
  if (name === undefined) return undefined;
  const services = await ctx.services({ readonly: true });
  const model = await services.store.pyramid.model(name);
  if (!model) {
    const known = (await services.store.pyramid.models()).map((m) => m.name);
    throw new PieError(
      'NOT_FOUND',
      `There is no mental model "${name}"; known models: ${known.join(', ') || 'none yet (run pie summarize)'}.`,
    );
  }
  return model.id;
}

async function observations(
  ctx: CommandContext,
  flags: { model?: string; unassigned?: boolean; limit: string },
): Promise<void> {
  const services = await ctx.services({ readonly: true });
  const limit = parsePositiveInt(flags.limit, '--limit');
  const id = await modelId(ctx, flags.model);
  const list = await services.store.pyramid.observations({
    ...(id === undefined ? {} : { modelId: id }),
    ...(flags.unassigned === true ? { unassigned: true } : {}),
    order: 'desc',
    limit,
  });
  const names = await modelNames(ctx);
  const name = (mid: string | null): string => (mid === null ? '-' : (names.get(mid)?.name ?? mid));
  ctx.emit({
    text:
      list.length === 0
        ? 'No observations yet; add one with pie observe "…" or derive them with pie observe --from-world.'
        : list
            .map(
              (o) =>
                `[${o.id}] ${localDateTime(o.eventTime, ctx.config.tz)} (${o.importance}) [${name(o.modelId)}] ${o.text}`,
            )
            .join('\n'),
    json: { observations: list.map((o) => ({ ...o, model: o.modelId === null ? null : name(o.modelId) })) },
  });
}

async function summarizeCommand(
  ctx: CommandContext,
  flags: { tier?: string; llm?: string | boolean; world: boolean },
): Promise<void> {
  const services = await ctx.services({ existing: true });
  const tier = flags.tier === undefined ? undefined : wholeNumber(flags.tier, '--tier', 0, 30);
  const now = services.clock.now();
  const fromWorld = flags.world ? await observeWorld({ store: services.store, now }) : 0;
  const model =
    flags.llm === false
      ? null
      : await createQueryModel({ services, llm: typeof flags.llm === 'string' ? flags.llm : undefined });
  const report = await summarize({
    store: services.store,
    tz: ctx.config.tz,
    now,
    newId: services.newId,
    llm: model?.client ?? null,
    ...(tier === undefined ? {} : { tier }),
  });
  const lines = [
    `Summarized ${model ? `with ${model.description}` : 'without a model (deterministic: the most important lines of each window)'}.`,
    ...(fromWorld > 0 ? [`Added ${num(fromWorld)} observations from the world model.`] : []),
    `Assigned ${num(report.assigned)} observations${report.newModels.length > 0 ? `; new models: ${report.newModels.slice(0, 12).join(', ')}${report.newModels.length > 12 ? ` and ${num(report.newModels.length - 12)} more` : ''}` : ''}.`,
    ...report.tiers
      .filter((t) => t.made + t.unchanged > 0)
      .map((t) => `Tier ${t.tier}: ${num(t.made)} summaries made, ${num(t.unchanged)} unchanged.`),
    ...report.warnings.map((w) => `Warning: ${w}`),
  ];
  ctx.emit({ text: lines.join('\n'), json: { observationsFromWorld: fromWorld, ...report } });
}

async function summaries(ctx: CommandContext, flags: { tier?: string; model?: string; limit: string }): Promise<void> {
  const services = await ctx.services({ readonly: true });
  const tier = flags.tier === undefined ? undefined : wholeNumber(flags.tier, '--tier', 0, 30);
  const limit = parsePositiveInt(flags.limit, '--limit');
  const id = await modelId(ctx, flags.model);
  const list = await services.store.pyramid.summaries({
    ...(id === undefined ? {} : { modelId: id }),
    ...(tier === undefined ? {} : { tier }),
    order: 'desc',
    limit,
  });
  const names = await modelNames(ctx);
  const tz = ctx.config.tz;
  ctx.emit({
    text:
      list.length === 0
        ? 'No summaries yet; run pie summarize.'
        : list
            .map(
              (s) =>
                `Tier ${s.tier} · ${names.get(s.modelId)?.name ?? s.modelId} · ${localDate(s.start, tz)} to ${localDate(s.end - 1, tz)}${s.method === 'deterministic' ? ' (selected without a model)' : ` (${s.method})`}\n${s.text}`,
            )
            .join('\n\n'),
    json: { summaries: list.map((s) => ({ ...s, model: names.get(s.modelId)?.name ?? null })) },
  });
}

async function models(ctx: CommandContext): Promise<void> {
  const services = await ctx.services({ readonly: true });
  const list = await services.store.pyramid.models();
  ctx.emit({
    text:
      list.length === 0
        ? 'No mental models yet; run pie summarize.'
        : list.map((m) => `[${m.isBase ? '*' : ' '}] ${m.name}: ${m.description || '(not summarized yet)'}`).join('\n'),
    json: { models: list },
  });
}

async function modelCommand(ctx: CommandContext, name: string): Promise<void> {
  const services = await ctx.services({ readonly: true });
  const pyramid = await getPyramid({ store: services.store, model: name });
  ctx.emit({ text: renderPyramid(pyramid, ctx.config.tz), json: pyramid });
}
