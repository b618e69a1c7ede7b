import { z } from 'zod';
import { PieError } from '../../../domain/errors.js';
import { phaseItems } from '../../../metabolism/phase-items.js';
import { PHASES } from '../../../metabolism/phases.js';
import { SCOPES } from '../../../metabolism/plan.js';
import { sleepPhaseNames } from '../../../metabolism/plan-reports.js';
import type { PhaseReport } from '../../../metabolism/run-phases.js';
import type { WorldStore } from '../../../ports/world-store.js';
import type { HttpDeps } from '../deps.js';
import { errorResponse } from '../errors.js';
import { defineRoute, iso, type Route } from '../route.js';
import { planSleepPreview } from '../sleep-plans.js';

/**
 * Each phase with what it did as readable lines (phaseItems), the entities they name resolved to names (one read
 * for the phases given; an entity merged away since is listed by its id).
 */
export async function withItems(store: WorldStore, phases: readonly PhaseReport[]) {
  const items = phases.map((p) => phaseItems(p));
  const ids = [...new Set(items.flat().flatMap((i) => i.entityIds ?? []))];
  const names = new Map((await store.entities.getMany(ids)).map((e) => [e.id, e.name]));
  return phases.map((p, i) => ({
    ...p,
    items: (items[i] ?? []).map((item) => ({
      text: item.text,
      entities: (item.entityIds ?? []).map((id) => ({ id, name: names.get(id) ?? id })),
    })),
  }));
}

/** Lets the line just queued reach the socket (and other requests run) before the next phase holds the thread. */
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The sleep preview phase by phase, as JSON lines: `start` (the phase names in order, and `kept` when the plan is
 * one kept from the same memory: sleep-plans.ts), one `phase` line per phase as soon as it is planned (the same
 * report lines and items as POST /api/sleep with dry_run), then `done` with the previewId (over every phase, exactly
 * as the JSON dry run computes it) or `error`. The plan is the one the JSON dry run makes; only its delivery
 * differs. A client that goes away stops the preview at the next phase.
 */
function previewStream(deps: HttpDeps, scope: (typeof SCOPES)[number], replan: boolean): Response {
  const encoder = new TextEncoder();
  let cancelled = false;
  let started = false;
  const body = new ReadableStream<Uint8Array>(
    {
      // The work starts when the server first reads the stream (not when it is made): by then the answer's headers
      // are out, so the first lines reach the client while later phases are still being planned.
      pull(controller) {
        if (started) return;
        started = true;
        void run(controller);
      },
      cancel() {
        cancelled = true;
      },
    },
    // No read ahead: pull is called when the server reads, not as soon as the stream exists.
    { highWaterMark: 0 },
  );
  async function run(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    const send = async (line: Record<string, unknown>): Promise<void> => {
      if (cancelled) throw new PieError('CONFLICT', 'The client stopped reading the preview.');
      controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      await flush();
    };
    try {
      let index = 0;
      const plan = await planSleepPreview({
        deps,
        scope,
        replan,
        runId: `sleep-${deps.newId()}`,
        onStart: ({ now, kept, runId }) =>
          send({ type: 'start', runId, scope, now: iso(now), kept, phases: sleepPhaseNames(PHASES) }),
        onPhase: async (phase) => {
          const [shown] = await withItems(deps.store, [phase]);
          await send({ type: 'phase', index: index++, phase: shown });
        },
      });
      await send({ type: 'done', previewId: plan.previewId, now: iso(plan.report.now), health: plan.report.health });
    } catch (error) {
      if (cancelled) return;
      controller.enqueue(
        encoder.encode(`${JSON.stringify({ type: 'error', ...errorResponse(error, deps.log).body })}\n`),
      );
    }
    controller.close();
  }
  return new Response(body, {
    headers: {
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      // Never buffered or compressed on the way: each line is shown when it arrives.
      'Cache-Control': 'no-store, no-transform',
      'X-Accel-Buffering': 'no',
      // Written as it comes (the Node adapter otherwise reads ahead to size a short answer before sending it).
      'Transfer-Encoding': 'chunked',
    },
  });
}

export const sleepPreviewRoutes: Route[] = [
  defineRoute({
    method: 'post',
    path: '/api/sleep/preview',
    summary:
      'A sleep preview (dry run) streamed phase by phase as JSON lines: {type:"start",kept,phases} (kept: a plan kept from the memory as it is now, all its lines at once), {type:"phase",index,phase} per phase, then {type:"done",previewId} or {type:"error",error}; apply it with POST /api/sleep {dry_run:false, preview_id}',
    tag: 'maintain',
    ndjson: true,
    body: z.object({
      scope: z.enum(SCOPES).default('full'),
      replan: z
        .boolean()
        .default(false)
        .describe('plan now even when a plan kept from the same memory may be shown (start says kept: true)'),
    }),
    handler: async ({ body, deps }) => previewStream(deps, body.scope, body.replan),
  }),
  defineRoute({
    method: 'get',
    path: '/api/sleep/kept',
    summary:
      'Whether a preview of this scope is kept from the memory as it is now (shown at once by the next preview), with its instant and previewId',
    tag: 'maintain',
    query: z.object({ scope: z.enum(SCOPES).default('full') }),
    response: z.object({
      kept: z.boolean(),
      now: z.string().nullable().describe('the instant the kept plan was made at'),
      previewId: z.string().nullable(),
    }),
    handler: async ({ query, deps }) => {
      const kept = deps.plans.fresh(query.scope, await deps.store.revision(), deps.clock.now());
      return kept
        ? { kept: true, now: iso(kept.report.now), previewId: kept.previewId }
        : { kept: false, now: null, previewId: null };
    },
  }),
];
