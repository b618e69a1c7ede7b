import { periodAt } from '../../compile/time-format.js';
import type { Period } from '../../domain/world.js';
import type { PlanContext } from './context.js';
import type { Mutation } from './mutations.js';
import type { WorldSlice } from './working-set.js';
import { applyEdge, type OpenEdges } from './plan-relationships.js';

/** How sure a DURING link is: the period is the batch's context, not something the conversation said. */
const DURING_CONFIDENCE = 0.7;

/**
 * The batch's period context becomes a period entity whose start and end follow the observed dates; entities first
 * seen in this batch get a DURING link to it, and the batch's episodes mention it. A known entity whose first mention
 * moved to this batch (an older conversation extracted late) was first seen here too: a DURING link it has to another
 * period goes (it named where the later conversation was), and it gets this batch's instead.
 */
export function planPeriod(
  ctx: PlanContext,
  edges: OpenEdges,
  slice: Pick<WorldSlice, 'periods' | 'during'>,
  seen: { newIds: ReadonlySet<string>; movedIds: ReadonlySet<string> },
): void {
  const name = ctx.input.result.periodContext;
  const w = name
    ? ctx.entity(
        name,
        { episodeId: ctx.input.result.batch.episodeIds[0] },
        { summary: `Period first observed: ${name}` },
      )
    : undefined;
  for (const d of slice.during ?? []) {
    if (seen.movedIds.has(d.sourceId) && d.targetId !== w?.id) ctx.ws.emit({ op: 'relationship.remove', id: d.id });
  }
  if (!w) return;
  const episodeIds = ctx.input.result.batch.episodeIds;
  const times = episodeIds.map((id) => ctx.input.episodeTimes.get(id) ?? ctx.input.batchTime);
  const first = Math.min(...times);
  const last = Math.max(...times);
  for (const episodeId of episodeIds) ctx.ws.touch(w, ctx.input.episodeTimes.get(episodeId) ?? first, episodeId);
  const known = slice.periods.get(w.id);
  ctx.ws.emit({
    op: 'period.upsert',
    period: {
      entityId: w.id,
      name: w.name,
      start: Math.min(known?.start ?? first, first),
      end: Math.max(known?.end ?? last, last),
    },
  });
  for (const id of new Set([...seen.newIds, ...seen.movedIds])) {
    if (id === w.id) continue;
    applyEdge(ctx, edges, {
      sourceId: id,
      targetId: w.id,
      type: 'DURING',
      properties: {},
      ended: false,
      confidence: DURING_CONFIDENCE,
      time: first,
      episodeId: episodeIds[0] ?? '',
    });
  }
}

const YMD = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Other period entities the batch declares with a stated start ("since I moved to Boston two years ago") get their
 * period row too: from that start (or an earlier known one), open while the period is active, else closed at its
 * stated end. A period told about with no date (a childhood) stays an entity without a row: its times are unknown.
 */
export function planStatedPeriods(ctx: PlanContext, periods: ReadonlyMap<string, Period>): void {
  const { result } = ctx.input;
  for (const e of result.entities) {
    if (e.type !== 'period' || e.name === result.periodContext) continue;
    const start = e.state.start;
    if (typeof start !== 'string' || !YMD.test(start)) continue;
    const w = ctx.entity(e.name, { episodeId: e.episodeId ?? result.batch.episodeIds[0] });
    const known = periods.get(w.id);
    const at = Date.parse(`${start}T12:00:00.000Z`);
    const stated =
      typeof e.state.end === 'string' && YMD.test(e.state.end) ? Date.parse(`${e.state.end}T12:00:00.000Z`) : null;
    ctx.ws.emit({
      op: 'period.upsert',
      period: {
        entityId: w.id,
        name: w.name,
        start: Math.min(known?.start ?? at, at),
        end: e.state.status === 'active' ? (known?.end ?? null) : (stated ?? known?.end ?? null),
      },
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

/** A period whose row this batch made, or whose start it moved earlier, and the part of its range that is new. */
export interface PeriodToldLate {
  period: Period;
  since: number;
  /** Inclusive; null: open. */
  until: number | null;
}

/** The periods of `upserts` (period.upsert mutations) new to `known`, or starting earlier than known, with their new range. */
export function periodsToldLate(upserts: readonly Period[], known: ReadonlyMap<string, Period>): PeriodToldLate[] {
  const out: PeriodToldLate[] = [];
  for (const period of upserts) {
    const before = known.get(period.entityId);
    if (before === undefined) out.push({ period, since: period.start, until: period.end });
    else if (period.start < before.start) out.push({ period, since: period.start, until: before.start - 1 });
  }
  return out;
}

/**
 * Entities first seen inside a period's new range with no DURING link (extracted before the period was known: a
 * later conversation extracted before the older one that names the period) get the link extraction in date order
 * gives them: to the latest-starting period that contains their first mention, when that is one this batch told.
 */
export function planLateDuring(input: {
  told: readonly PeriodToldLate[];
  periods: readonly Period[];
  unlinked: readonly { id: string; firstSeen: number; episodeId: string | null }[];
  recordedAt: number;
  newId: () => string;
}): Mutation[] {
  const told = new Set(input.told.map((t) => t.period.entityId));
  const out: Mutation[] = [];
  for (const e of input.unlinked) {
    const home = periodAt(
      input.periods.filter((p) => p.entityId !== e.id),
      e.firstSeen,
    );
    if (home === undefined || !told.has(home.entityId)) continue;
    out.push({
      op: 'relationship.insert',
      relationship: {
        id: input.newId(),
        type: 'DURING',
        sourceId: e.id,
        targetId: home.entityId,
        properties: {},
        validFrom: e.firstSeen,
        validTo: null,
        confidence: DURING_CONFIDENCE,
        episodeId: e.episodeId,
        recordedAt: input.recordedAt,
        discoveredBy: null,
      },
    });
  }
  return out;
}
