import { z } from 'zod';
import { PieError } from '../../../domain/errors.js';
import { computeHealth } from '../../../metabolism/health.js';
import { planSalience, SCOPES } from '../../../metabolism/plan.js';
import { previewInstant, sleepPreviewId } from '../../../metabolism/preview-id.js';
import { runSleep, SLEEP_LOG_KIND } from '../../../metabolism/sleep.js';
import { undoRun } from '../../../metabolism/undo.js';
import type { MaintenanceLogEntry } from '../../../ports/world-store.js';
import { defineRoute, iso, readOnlyError, type Route } from '../route.js';
import { withItems } from './sleep-preview.js';
import { planSleepPreview } from '../sleep-plans.js';

/** Sleep (dry run, then apply), undo, the health report and the maintenance log: the functions behind pie sleep/undo/health. */
export const maintenanceRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/api/status',
    summary: 'Server and world: version, read-only, the answering model, counts',
    tag: 'maintain',
    handler: async ({ deps }) => {
      const model = await deps.queryModel();
      return {
        version: deps.version,
        readOnly: deps.readOnly,
        now: iso(deps.clock.now()),
        tz: deps.tz,
        model: model?.description ?? null,
        stats: await deps.store.stats(),
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/sleep',
    summary:
      'A sleep cycle (the same as pie sleep): dry_run (default) plans and writes nothing; otherwise applies it, journaled and undoable',
    tag: 'maintain',
    body: z.object({
      scope: z.enum(SCOPES).default('full'),
      dry_run: z.boolean().default(true),
      preview_id: z
        .string()
        .max(100)
        .optional()
        .describe(
          'apply exactly this preview (the previewId of a dry run): refused with 409 when the world or the scope changed since',
        ),
      replan: z
        .boolean()
        .default(false)
        .describe('dry run: plan now even when a plan kept from the same memory may be shown (the answer says kept)'),
    }),
    handler: async ({ body, deps }) => {
      if (!body.dry_run && deps.readOnly) throw readOnlyError();
      if (body.dry_run) {
        const plan = await planSleepPreview({
          deps,
          scope: body.scope,
          replan: body.replan,
          runId: `sleep-${deps.newId()}`,
        });
        const { report } = plan;
        const phases = await withItems(deps.store, report.phases);
        return { ...report, phases, now: iso(report.now), previewId: plan.previewId, kept: plan.kept };
      }
      const llm = (await deps.queryModel())?.client ?? null;
      const sleep = (dryRun: boolean, now: number) =>
        runSleep({
          store: deps.store,
          scope: body.scope,
          dryRun,
          now,
          runId: `sleep-${deps.newId()}`,
          newId: deps.newId,
          llm,
          // A request never waits for an extraction: 409 while one (or another sleep) is running.
          lease: { via: 'POST /api/sleep', extraction: 'refuse' },
        });
      let now = deps.clock.now();
      if (body.preview_id !== undefined) {
        now = previewInstant(body.preview_id);
        // A kept plan of this id and scope, of the memory as it is now, is the plan a replan would make.
        const kept = deps.plans.named(body.preview_id, await deps.store.revision());
        if (kept?.report.scope !== body.scope) {
          const again = await sleep(true, now);
          if (sleepPreviewId(again, await deps.store.stats()) !== body.preview_id) {
            throw new PieError(
              'CONFLICT',
              'The world or the sleep options changed since this preview; preview the sleep again and apply that preview.',
            );
          }
        }
      }
      const report = await sleep(false, now);
      return { ...report, phases: await withItems(deps.store, report.phases), now: iso(report.now), previewId: null };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/undo',
    summary: 'Revert one maintenance run (sleep or KIP command) by its id (the same as pie undo)',
    tag: 'maintain',
    write: true,
    body: z.object({
      run_id: z.string().trim().min(1).max(200),
      force: z.boolean().default(false).describe('restore even rows that changed after the run'),
    }),
    handler: async ({ body, deps }) => {
      const report = await undoRun({ store: deps.store, runId: body.run_id, now: deps.clock.now(), force: body.force });
      return { ...report, undoneAt: iso(report.undoneAt) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/health',
    summary:
      'The health report (the same as pie health): tiers, importance, isolation, contradictions, pending changes',
    tag: 'maintain',
    handler: async ({ deps }) => {
      const now = deps.clock.now();
      const salience = await planSalience({ store: deps.store, now });
      const report = await computeHealth({ store: deps.store, salience, now });
      const runs = (await deps.store.maintenance.list(10)).filter((e) => e.kind === SLEEP_LOG_KIND);
      return {
        ...report,
        pending: { importance: salience.importance.length, tiers: salience.tiers.length },
        recentSleeps: runs.map(entryOut),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/maintenance',
    summary: 'The maintenance log, newest first (sleep runs, KIP commands, undos)',
    tag: 'maintain',
    query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50).describe('entries (1–500)') }),
    handler: async ({ query, deps }) => ({ items: (await deps.store.maintenance.list(query.limit)).map(entryOut) }),
  }),
];

function entryOut(e: MaintenanceLogEntry) {
  return {
    id: e.id,
    kind: e.kind,
    status: e.status,
    startedAt: iso(e.startedAt),
    finishedAt: iso(e.finishedAt),
    report: e.report,
  };
}
