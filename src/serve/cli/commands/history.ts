import { Option, type Command } from 'commander';
import { compileContradictions } from '../../../compile/contradictions.js';
import { compileDiff } from '../../../compile/diff.js';
import { compileSnapshot } from '../../../compile/snapshot.js';
import type { TimeContext, TimeFormat } from '../../../compile/time-format.js';
import type { Services } from '../../../compose.js';
import { PieError } from '../../../domain/errors.js';
import { listContradictions } from '../../../query/world-at/contradictions.js';
import { diffWorld } from '../../../query/world-at/diff.js';
import { snapshotAt } from '../../../query/world-at/snapshot.js';
import { nowSpan, resolvePeriod, resolveSpan, type Span } from '../../../query/world-at/span.js';
import { parsePositiveInt } from '../args.js';
import type { CommandContext } from '../context.js';
import type { ActionRunner } from '../run.js';

const TIME_FORMATS: readonly TimeFormat[] = ['semantic', 'absolute', 'hybrid'];

interface TimeFlags {
  timeFormat: TimeFormat;
}

interface SnapshotFlags extends TimeFlags {
  at?: string;
  period?: string;
  type?: string;
  limit: string;
}

export interface DiffFlags extends TimeFlags {
  limit: string;
}

interface ContradictionFlags extends TimeFlags {
  entity?: string;
  all?: boolean;
}

function timeFormatOption(): Option {
  return new Option('--time-format <format>', 'how times are written').choices([...TIME_FORMATS]).default('hybrid');
}

/** `pie snapshot`, `pie diff`, `pie contradictions`: the world at a time, what changed, what conflicts. */
export function registerHistory(program: Command, run: ActionRunner): void {
  program
    .command('snapshot')
    .description('the world at a date or at the end of a period: entities then, their state and relationships then')
    .option('--at <date>', 'a date (YYYY-MM-DD) or a time such as "May 2024" (default: now)')
    .option('--period <name>', 'a period, read at its end (pie periods lists them)')
    .option('--type <type>', 'only entities of this type (any case: Tool is tool)')
    .option('--limit <n>', 'how many entities to list', '50')
    .addOption(timeFormatOption())
    .action((flags: SnapshotFlags) => run((ctx) => snapshot(ctx, flags)));
  program
    .command('diff')
    .description(
      'what changed between the end of A and the end of B (periods or dates): new entities, changed state, relationships, reversed beliefs, contradictions, activity',
    )
    .argument('<a>', 'a period name or a date')
    .argument('<b>', 'a period name or a date')
    .option('--limit <n>', 'most items per list', '20')
    .addOption(timeFormatOption())
    .action((a: string, b: string, flags: DiffFlags) => run((ctx) => diff(ctx, a, b, flags)));
  program
    .command('contradictions')
    .description('unresolved contradictions: state that flipped against what was known, beliefs that conflict')
    .option('--entity <name>', 'only those about this entity')
    .option('--all', 'include resolved ones, marked as such')
    .addOption(timeFormatOption())
    .action((flags: ContradictionFlags) => run((ctx) => contradictions(ctx, flags)));
}

async function timeContext(services: Services, ctx: CommandContext, format: TimeFormat): Promise<TimeContext> {
  return { now: services.clock.now(), tz: ctx.config.tz, format, periods: await services.store.periods.list() };
}

async function snapshot(ctx: CommandContext, flags: SnapshotFlags): Promise<void> {
  if (flags.at !== undefined && flags.period !== undefined) {
    throw new PieError('INVALID_ARGUMENT', 'Give either --at or --period, not both.');
  }
  const limit = parsePositiveInt(flags.limit, '--limit');
  const services = await ctx.services({ readonly: true });
  const time = await timeContext(services, ctx, flags.timeFormat);
  const args = { now: time.now, tz: time.tz, periods: time.periods };
  const span: Span =
    flags.period !== undefined
      ? resolvePeriod({ ...args, text: flags.period })
      : flags.at !== undefined
        ? resolveSpan({ ...args, text: flags.at })
        : nowSpan({ now: time.now });
  const result = await snapshotAt({
    store: services.store,
    at: span.at,
    span,
    limit,
    ...(flags.type === undefined ? {} : { type: flags.type }),
  });
  ctx.emit({ text: compileSnapshot({ snapshot: result, time }), json: result });
}

export async function diff(ctx: CommandContext, a: string, b: string, flags: DiffFlags): Promise<void> {
  const limit = parsePositiveInt(flags.limit, '--limit');
  const services = await ctx.services({ readonly: true });
  const time = await timeContext(services, ctx, flags.timeFormat);
  const args = { now: time.now, tz: time.tz, periods: time.periods };
  const result = await diffWorld({
    store: services.store,
    a: resolveSpan({ ...args, text: a }),
    b: resolveSpan({ ...args, text: b }),
    limit,
  });
  ctx.emit({ text: compileDiff({ diff: result, time }), json: result });
}

async function contradictions(ctx: CommandContext, flags: ContradictionFlags): Promise<void> {
  const services = await ctx.services({ readonly: true });
  const time = await timeContext(services, ctx, flags.timeFormat);
  const all = flags.all === true;
  const list = await listContradictions({
    store: services.store,
    all,
    ...(flags.entity === undefined ? {} : { entityName: flags.entity }),
  });
  const entity = flags.entity ?? null;
  ctx.emit({
    text: compileContradictions({ contradictions: list, entity, all, time }),
    json: { entity, all, total: list.length, unresolved: list.filter((c) => !c.resolved).length, contradictions: list },
  });
}
