import type { Period } from '../../domain/world.js';
import type { PlanContext } from './context.js';
import { applyEdge, type OpenEdges } from './plan-relationships.js';

/**
 * The batch's period context becomes a period entity whose start and end follow the observed dates; entities first
 * seen in this batch get a DURING link to it, and the batch's episodes mention it.
 */
export function planPeriod(
  ctx: PlanContext,
  edges: OpenEdges,
  periods: ReadonlyMap<string, Period>,
  newIds: ReadonlySet<string>,
): void {
  const name = ctx.input.result.periodContext;
  if (!name) return;
  const episodeIds = ctx.input.result.batch.episodeIds;
  const times = episodeIds.map((id) => ctx.input.episodeTimes.get(id) ?? ctx.input.batchTime);
  const first = Math.min(...times);
  const last = Math.max(...times);
  const firstEpisode = { episodeId: episodeIds[0] };
  const w = ctx.entity(name, firstEpisode, { summary: `Period first observed: ${name}` });
  for (const episodeId of episodeIds) ctx.ws.touch(w, ctx.input.episodeTimes.get(episodeId) ?? first, episodeId);
  const known = periods.get(w.id);
  ctx.ws.emit({
    op: 'period.upsert',
    period: {
      entityId: w.id,
      name: w.name,
      start: Math.min(known?.start ?? first, first),
      end: Math.max(known?.end ?? last, last),
    },
  });
  for (const id of newIds) {
    if (id === w.id) continue;
    applyEdge(ctx, edges, {
      sourceId: id,
      targetId: w.id,
      type: 'DURING',
      properties: {},
      ended: false,
      confidence: 0.7,
      time: first,
      episodeId: episodeIds[0] ?? '',
    });
  }
}

/** Locations become place entities mentioned by the episode. */
export function planLocations(ctx: PlanContext): void {
  const episodeId = ctx.input.result.batch.episodeIds[0];
  for (const place of ctx.input.result.locations) ctx.entity(place, { episodeId });
}

/** Summary, significance and user state go onto the episodes. */
export function planAnnotations(ctx: PlanContext): void {
  const { result } = ctx.input;
  const annotated = new Set<string>();
  for (const a of result.episodes) {
    if (!result.batch.episodeIds.includes(a.id)) continue;
    annotated.add(a.id);
    ctx.ws.emit({
      op: 'episode.annotate',
      id: a.id,
      summary: a.summary,
      significance: a.significance,
      userState: a.userState,
    });
  }
  for (const id of result.batch.episodeIds) {
    if (annotated.has(id)) continue;
    if (result.summary === undefined && result.significance === undefined && result.userState === undefined) continue;
    ctx.ws.emit({
      op: 'episode.annotate',
      id,
      summary: result.summary,
      significance: result.significance,
      userState: result.userState,
    });
  }
}
