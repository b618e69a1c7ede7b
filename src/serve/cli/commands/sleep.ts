import type { Command } from 'commander';
import { createQueryModel } from '../../../compose.js';
import { PieError } from '../../../domain/errors.js';
import { computeHealth } from '../../../metabolism/health.js';
import { planSalience, SCOPES, type SleepScope } from '../../../metabolism/plan.js';
import { runSleep, SLEEP_LOG_KIND, type SleepReport } from '../../../metabolism/sleep.js';
import { undoRun } from '../../../metabolism/undo.js';
import type { CommandContext } from '../context.js';
import { clip, localDate, localDateTime, num, table } from '../format.js';
import { createProgress } from '../io.js';
import type { ActionRunner } from '../run.js';

export function registerSleep(program: Command, run: ActionRunner): void {
  program
    .command('sleep')
    .description(
      'maintenance cycle: importance, tiers, decay, procedures, merges, contradictions, dreams, sleep tasks, TTL; journaled and undoable',
    )
    .option(
      '--scope <scope>',
      'daydream (importance only) | quick (+ tiers, sleep tasks) | full (every phase; see docs/metabolism.md)',
      'full',
    )
    .option('--dry-run', 'show what would change and write nothing (and call no model)')
    .option(
      '--llm <provider:model>',
      'model for the model-only phases (default: PIE_LLM or an API key in the environment)',
    )
    .option('--no-llm', 'run without a model even when one is configured (model-only phases are skipped)')
    .option(
      '--no-wait',
      'when an extraction is running on this database, stop with exit 5 instead of waiting for it to finish',
    )
    .action((flags: SleepFlags) => run((ctx) => sleep(ctx, flags)));
  program
    .command('undo')
    .description('revert one sleep run exactly, from its journal')
    .argument('<run-id>', 'the run id that pie sleep printed')
    .option(
      '--force',
      'undo even over rows that changed after the run: what the run changed goes back, what changed later stays',
    )
    .action((runId: string, flags: { force?: boolean }) => run((ctx) => undo(ctx, runId, flags.force === true)));
  program
    .command('health')
    .description('world model health against the targets, what a sleep would change, and the recent sleep runs')
    .action(() => run(health));
  program
    .command('procedures')
    .description('recurring patterns mined from entity lifecycles (pie sleep --scope full finds them)')
    .option('--domain <domain>', 'only this domain, e.g. "project lifecycle"')
    .action((flags: { domain?: string }) => run((ctx) => procedures(ctx, flags)));
}

export interface SleepFlags {
  scope: string;
  dryRun?: boolean;
  /** A provider:model, or false for --no-llm. */
  llm?: string | boolean;
  /** False for --no-wait. */
  wait?: boolean;
}

function parseScope(value: string): SleepScope {
  if ((SCOPES as readonly string[]).includes(value)) return value as SleepScope;
  throw new PieError('INVALID_ARGUMENT', `--scope must be one of ${SCOPES.join(', ')}, not "${value}".`);
}

function reportText(r: SleepReport): string {
  const lines = [
    `${r.dryRun ? 'Dry run (nothing written)' : `Sleep run ${r.runId}`}: scope ${r.scope}.`,
    table([
      ['phase', 'status', 'changes', 'note'],
      ...[...r.phases, ...(r.settled ? [r.settled] : [])].map((p) => [
        p.name,
        p.status,
        num(p.changes),
        clip(p.reason ?? phaseNote(p.details), 60),
      ]),
    ]),
    `Health: ${num(r.health.entities)} entities (${Object.entries(r.health.byTier)
      .map(([tier, n]) => `${num(n)} ${tier}`)
      .join(
        ', ',
      )}), mean importance ${r.health.meanImportance.toFixed(2)}, ${num(r.health.isolated)} without relationships, ${num(r.health.unresolvedContradictions)} open contradictions, ${num(r.health.procedures)} procedures, ${num(r.health.pendingTasks)} sleep tasks waiting.`,
    ...r.health.warnings.map((w) => `Warning: ${w}`),
    ...r.phases.flatMap((p) => (p.issues ?? []).slice(0, 10).map((i) => `Issue (${p.name}): ${i}`)),
  ];
  if (!r.dryRun) {
    lines.push(
      r.journaled === 0
        ? 'No row changed, so there is nothing to revert.'
        : `${num(r.journaled)} row changes journaled; revert with: pie undo ${r.runId}`,
    );
  }
  return lines.join('\n');
}

function phaseNote(details: Record<string, unknown> | undefined): string {
  if (details === undefined) return '';
  if (typeof details.note === 'string') return details.note;
  const moves = details.moves;
  if (moves !== null && typeof moves === 'object') {
    return Object.entries(moves as Record<string, number>)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  }
  if (typeof details.iterations === 'number') {
    return `${details.converged === true ? 'converged' : 'NOT converged'} in ${details.iterations} iterations`;
  }
  return '';
}

export async function sleep(ctx: CommandContext, flags: SleepFlags): Promise<void> {
  const scope = parseScope(flags.scope);
  const dryRun = flags.dryRun === true;
  const services = await ctx.services({ readonly: dryRun, existing: true });
  const model =
    flags.llm === false
      ? null
      : await createQueryModel({ services, llm: typeof flags.llm === 'string' ? flags.llm : undefined });
  const progress = createProgress({ io: ctx.io, enabled: !ctx.config.json });
  try {
    if (model !== null) progress.update(`model: ${model.description}`);
    const report = await runSleep({
      store: services.store,
      scope,
      dryRun,
      now: services.clock.now(),
      runId: `sleep-${services.newId()}`,
      newId: services.newId,
      llm: model?.client ?? null,
      onProgress: (text) => progress.update(text),
      lease: {
        via: `pie sleep --scope ${scope}`,
        extraction: flags.wait === false ? 'refuse' : 'wait',
        onWaiting: (message) => ctx.io.stderr(`${message}\n`),
      },
    });
    progress.done();
    ctx.emit({ text: reportText(report), json: report });
  } finally {
    progress.done();
  }
}

export async function undo(ctx: CommandContext, runId: string, force: boolean): Promise<void> {
  const services = await ctx.services({ existing: true });
  const report = await undoRun({ store: services.store, runId, now: services.clock.now(), force });
  const kept =
    report.kept > 0 ? ` ${num(report.kept)} rows had changed since the run; their later changes were kept.` : '';
  const forgotten =
    report.forgotten > 0
      ? ` ${num(report.forgotten)} of its row changes were about what pie forget removed; they were dropped from its journal and stay forgotten.`
      : '';
  ctx.emit({
    text: `Run ${report.runId} undone: ${num(report.restored)} row changes reverted.${kept}${forgotten}`,
    json: report,
  });
}

async function procedures(ctx: CommandContext, flags: { domain?: string }): Promise<void> {
  const { store } = await ctx.services({ readonly: true });
  const list = await store.procedures.list(flags.domain ? { domain: flags.domain } : {});
  const tz = ctx.config.tz;
  const text =
    list.length === 0
      ? flags.domain
        ? `No procedures in domain "${flags.domain}".`
        : 'No procedures yet; run pie sleep --scope full after ingesting.'
      : table([
          ['pattern', 'domain', 'seen', 'first', 'last', 'confidence'],
          ...list.map((p) => [
            clip(p.pattern.join(' → '), 70),
            p.domain ?? '',
            num(p.timesObserved),
            localDate(p.firstObserved, tz),
            localDate(p.lastObserved, tz),
            p.confidence.toFixed(2),
          ]),
        ]);
  ctx.emit({ text, json: { total: list.length, procedures: list } });
}

async function health(ctx: CommandContext): Promise<void> {
  const services = await ctx.services({ readonly: true });
  const { store } = services;
  const salience = await planSalience({ store, now: services.clock.now() });
  const report = await computeHealth({ store, salience, now: services.clock.now() });
  const runs = (await store.maintenance.list(10)).filter((e) => e.kind === SLEEP_LOG_KIND);
  const pending = { importance: salience.importance.length, tiers: salience.tiers.length };
  const lines = [
    `${num(report.entities)} entities (${Object.entries(report.byTier)
      .map(([tier, n]) => `${num(n)} ${tier}`)
      .join(', ')}), mean importance ${report.meanImportance.toFixed(2)}.`,
    `${num(report.isolated)} without relationships (${(report.isolatedShare * 100).toFixed(1)}%), ${num(report.unresolvedContradictions)} open contradictions, ${num(report.procedures)} procedures, ${num(report.pendingTasks)} sleep tasks waiting.`,
    `${num(report.facts)} current facts, mean confidence ${report.meanConfidence.toFixed(2)}; ${num(report.overdueCommitments)} open commitments past due.`,
    ...(report.warnings.length === 0 ? ['All health targets met.'] : report.warnings.map((w) => `Warning: ${w}`)),
    `A sleep now would change ${num(pending.importance)} importance scores and ${num(pending.tiers)} tiers (pie sleep --dry-run for details).`,
    runs.length === 0
      ? 'No sleep runs yet.'
      : `Recent sleep runs:\n${table(
          runs.map((r) => [r.id, r.status, localDateTime(r.startedAt, ctx.config.tz)]),
          { indent: '  ' },
        )}`,
  ];
  ctx.emit({ text: lines.join('\n'), json: { health: report, pending, runs } });
}
