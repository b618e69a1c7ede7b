import type { Command } from 'commander';
import { PieError } from '../../../domain/errors.js';
import { applyForget, compactAfterForget, planForget } from '../../../privacy/forget.js';
import type { ForgetPlan } from '../../../privacy/forget-plan.js';
import { countsText, describeCompaction, describeForgetPlan } from '../../../privacy/forget-report.js';
import { FORGET_KINDS, type ForgetKind } from '../../../privacy/forget-target.js';
import type { CommandContext } from '../context.js';
import type { ActionRunner } from '../run.js';

interface ForgetFlags {
  kind?: string;
  dryRun?: boolean;
  yes?: boolean;
  compact?: boolean;
}

export function registerForget(program: Command, run: ActionRunner): void {
  program
    .command('forget')
    .description(
      'remove a memory and everything derived only from it: an entity, a conversation (id or exact title) or every turn containing a text; shows what goes first, asks, then compacts the file so the bytes are gone (see docs/privacy.md)',
    )
    .argument(
      '[target]',
      "an entity's name, alias or id; a conversation's id or exact title; or a text to find in turns",
    )
    .option('--kind <kind>', `what the target is: ${FORGET_KINDS.join(' | ')} (default: worked out from it)`)
    .option('--dry-run', 'show what would go and change nothing')
    .option('--yes', 'forget without asking (required when not on a terminal)')
    .option('--compact', 'only rewrite the database file so that nothing removed survives in it')
    .action((target: string | undefined, flags: ForgetFlags) => run((ctx) => forget(ctx, target, flags)));
}

function parseKind(value: string | undefined): ForgetKind | undefined {
  if (value === undefined || (FORGET_KINDS as readonly string[]).includes(value)) return value as ForgetKind;
  throw new PieError('INVALID_ARGUMENT', `--kind must be one of ${FORGET_KINDS.join(', ')}, not "${value}".`);
}

/** The plan for --json: everything but the rows it writes (ids of cache entries, journal rows …). */
function planJson(plan: ForgetPlan): Omit<ForgetPlan, 'write'> {
  const { write: _write, ...shown } = plan;
  return shown;
}

async function forget(ctx: CommandContext, target: string | undefined, flags: ForgetFlags): Promise<void> {
  if (flags.compact) {
    if (target !== undefined) throw new PieError('INVALID_ARGUMENT', '--compact takes no target; run it alone.');
    const report = await compactAfterForget((await ctx.services({ existing: true })).store);
    ctx.emit({ text: describeCompaction(report, ctx.config.dbPath), json: { compact: report } });
    return;
  }
  if (target === undefined || target.trim() === '') {
    throw new PieError(
      'INVALID_ARGUMENT',
      "Say what to forget: an entity's name, a conversation's id or title, or a text to find in conversations.",
    );
  }
  const kind = parseKind(flags.kind);
  const dryRun = flags.dryRun === true;
  const services = await ctx.services({ readonly: dryRun, existing: true });
  const plan = await planForget({ store: services.store, target, kind });
  const shown = describeForgetPlan(plan, ctx.config.tz).join('\n');
  if (dryRun) {
    ctx.emit({
      text: `${shown}\nDry run: nothing was forgotten.`,
      json: { dryRun: true, applied: false, plan: planJson(plan) },
    });
    return;
  }
  if (flags.yes !== true) {
    const confirm = ctx.config.json ? undefined : ctx.io.confirm;
    if (confirm === undefined) {
      ctx.emit({ text: shown, json: { dryRun: false, applied: false, plan: planJson(plan) } });
      throw new PieError(
        'INVALID_ARGUMENT',
        'Nothing was forgotten: run the same command again with --yes to remove what is listed above (there is no undo).',
      );
    }
    ctx.io.stdout(`${shown}\n`);
    if (!(await confirm('Forget all of this? There is no undo afterwards. [y/N] '))) {
      ctx.io.stdout('Nothing was forgotten.\n');
      return;
    }
  }
  const outcome = await applyForget({
    store: services.store,
    target,
    kind,
    planId: plan.id,
    now: services.clock.now(),
    // Not the target: the lease row is written after the file is compacted, and must not hold the forgotten text.
    purpose: 'pie forget',
  });
  const text = [
    ...(flags.yes === true ? [shown] : []),
    `Forgotten: ${countsText(outcome.plan.counts)}.`,
    describeCompaction(outcome.compact, ctx.config.dbPath),
  ].join('\n');
  ctx.emit({ text, json: { dryRun: false, applied: true, plan: planJson(outcome.plan), compact: outcome.compact } });
}
