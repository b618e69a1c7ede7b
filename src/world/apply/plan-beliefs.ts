import type { EntityState } from '../../domain/world.js';
import type { PlanContext } from './context.js';
import { applyEdge, type OpenEdges } from './plan-relationships.js';

/**
 * Beliefs are entities with their own history. A belief that reverses an earlier one turns the earlier belief's
 * stance to "abandoned" with a contradiction transition and links the two with CONTRADICTS; a belief held again
 * after being abandoned is a contradiction too.
 */
export function planBeliefs(ctx: PlanContext, edges: OpenEdges): void {
  for (const b of ctx.input.result.beliefs) {
    const time = ctx.timeOf(b);
    const episodeId = ctx.episodeOf(b);
    const state: EntityState = { stance: 'held', confidence: b.confidence };
    if (b.domain) state.domain = b.domain;
    const w = ctx.entity(b.statement, b, {
      state,
      summary: `Came to believe: ${b.statement}`,
      confidence: b.confidence,
    });
    const heldAt = ctx.ws.instant(w, time);
    const stance = ctx.ws.setAttribute({
      w,
      attribute: 'stance',
      value: 'held',
      time: heldAt,
      episodeId,
      confidence: b.confidence,
    });
    if (!stance.unchanged && !stance.historical && stance.previous !== undefined) {
      ctx.ws.transition({
        w,
        kind: 'contradiction',
        from: { stance: stance.previous },
        to: { stance: 'held' },
        summary: `Believes again: ${b.statement}`,
        time: heldAt,
        said: time,
        episodeId,
        confidence: b.confidence,
      });
    }
    if (!b.replaces) continue;
    const old = ctx.entity(b.replaces, b, {
      state: { stance: 'held' },
      summary: `Had believed: ${b.replaces}`,
      confidence: b.confidence,
    });
    const abandonedAt = ctx.ws.instant(old, time);
    const change = ctx.ws.setAttribute({
      w: old,
      attribute: 'stance',
      value: 'abandoned',
      time: abandonedAt,
      episodeId,
      confidence: b.confidence,
    });
    if (!change.unchanged && !change.historical) {
      ctx.ws.transition({
        w: old,
        kind: 'contradiction',
        from: { stance: change.previous ?? 'held' },
        to: { stance: 'abandoned' },
        summary: `No longer believed; replaced by: ${b.statement}`,
        time: abandonedAt,
        said: time,
        episodeId,
        confidence: b.confidence,
      });
    }
    applyEdge(ctx, edges, {
      sourceId: w.id,
      targetId: old.id,
      type: 'CONTRADICTS',
      properties: {},
      ended: false,
      confidence: b.confidence,
      time,
      episodeId,
    });
  }
}

/** Decisions are entities (status "made", reasoning, alternatives) linked ABOUT their subjects. */
export function planDecisions(ctx: PlanContext, edges: OpenEdges): void {
  for (const d of ctx.input.result.decisions) {
    const state: EntityState = { status: 'made' };
    if (d.reasoning) state.reasoning = d.reasoning;
    if (d.alternatives.length > 0) state.alternatives = d.alternatives.join('; ');
    const w = ctx.entity(d.summary, d, {
      state,
      summary: `Decided: ${d.summary}${d.reasoning ? ` (${d.reasoning})` : ''}`,
    });
    for (const name of d.relatedEntities) {
      const subject = ctx.entity(name, d);
      applyEdge(ctx, edges, {
        sourceId: w.id,
        targetId: subject.id,
        type: 'ABOUT',
        properties: {},
        ended: false,
        confidence: 0.8,
        time: ctx.timeOf(d),
        episodeId: ctx.episodeOf(d),
      });
    }
  }
}
