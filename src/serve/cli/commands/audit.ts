import type { Command } from 'commander';
import { applyAuditFixes, auditWorld } from '../../../audit/audit.js';
import type { Finding } from '../../../audit/detectors.js';
import { PieError } from '../../../domain/errors.js';
import type { CommandContext } from '../context.js';
import { clip, num } from '../format.js';
import type { ActionRunner } from '../run.js';

interface AuditFlags {
  fix?: boolean;
  dryRun?: boolean;
  limit: string;
}

export function registerAudit(program: Command, run: ActionRunner): void {
  program
    .command('audit')
    .description(
      'memory-quality report: junk entities, likely duplicates, entities without provenance, changes that changed nothing, conflicting facts, stale commitments; --fix applies the safe actions as one undoable run',
    )
    .option('--fix', 'archive junk, correct wrong types and merge exact duplicates (journaled: pie undo <run-id>)')
    .option('--dry-run', 'report only (the default)')
    .option('--limit <n>', 'findings listed per kind in the text output', '20')
    .action((flags: AuditFlags) => run((ctx) => audit(ctx, flags)));
}

const ACTION = (f: Finding): string => {
  const a = f.action;
  if (a.kind === 'archive') return 'archive';
  if (a.kind === 'retype') return `retype to ${a.type}`;
  if (a.kind === 'merge') return `merge into "${a.into.name}"`;
  return `review: ${a.what}`;
};

async function audit(ctx: CommandContext, flags: AuditFlags): Promise<void> {
  if (flags.fix && flags.dryRun) {
    throw new PieError(
      'INVALID_ARGUMENT',
      '--fix and --dry-run contradict each other; use one (the default is a dry run).',
    );
  }
  const limit = Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new PieError('INVALID_ARGUMENT', '--limit must be a positive whole number.');
  const services = flags.fix ? await ctx.services({ existing: true }) : await ctx.services({ readonly: true });
  const now = services.clock.now();
  const report = await auditWorld({ store: services.store, now });
  const fix = flags.fix
    ? await applyAuditFixes({
        store: services.store,
        findings: report.findings,
        now,
        runId: `audit-${services.newId()}`,
        newId: services.newId,
      })
    : null;
  const lines: string[] = [`Audited ${num(report.entities)} entities: ${num(report.findings.length)} findings.`];
  const kinds = [...new Set(report.findings.map((f) => f.kind))];
  for (const kind of kinds) {
    const list = report.findings.filter((f) => f.kind === kind);
    lines.push('', `${kind} (${num(list.length)}, ${num(list.filter((f) => f.safe).length)} safe to fix):`);
    for (const f of list.slice(0, limit)) {
      lines.push(`  • ${f.entity.name} (${f.entity.type}): ${f.why} → ${ACTION(f)}`);
      if (f.source)
        lines.push(
          `      from “${clip(f.source.title, 60)}”${f.source.excerpt ? `: ${clip(f.source.excerpt, 100)}` : ''}`,
        );
    }
    if (list.length > limit) lines.push(`  … ${num(list.length - limit)} more (--limit, or --json for all)`);
  }
  if (fix) {
    const a = fix.applied;
    lines.push(
      '',
      fix.journaled === 0
        ? 'Fixed: nothing (no finding was safe to fix); nothing changed, so there is nothing to revert.'
        : `Fixed: ${num(a.archived)} archived, ${num(a.retyped)} retyped, ${num(a.merged)} merged (${num(fix.journaled)} row changes journaled); revert with: pie undo ${fix.runId}`,
    );
  } else if (report.findings.some((f) => f.safe)) {
    lines.push('', 'Dry run: nothing changed. pie audit --fix applies the safe actions (undoable).');
  }
  ctx.emit({ text: lines.join('\n'), json: { ...report, fix } });
}
