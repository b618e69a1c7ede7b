import { GENERIC_RELATIONSHIP, type Relationship, type StateValue } from '../../domain/world.js';
import type { PlanContext } from './context.js';
import { sameValue } from './working-set.js';

/** Open relationships by (source, type, target), seeded from the world and kept current within the batch. */
export class OpenEdges {
  private readonly open = new Map<string, Relationship>();

  constructor(existing: readonly Relationship[]) {
    for (const r of existing) if (r.validTo === null) this.open.set(key(r.sourceId, r.type, r.targetId), r);
  }

  get(sourceId: string, type: string, targetId: string): Relationship | undefined {
    return this.open.get(key(sourceId, type, targetId));
  }

  set(r: Relationship): void {
    this.open.set(key(r.sourceId, r.type, r.targetId), r);
  }

  delete(r: Relationship): void {
    this.open.delete(key(r.sourceId, r.type, r.targetId));
  }
}

function key(source: string, type: string, target: string): string {
  return `${source}|${type}|${target}`;
}

export interface EdgeInput {
  sourceId: string;
  targetId: string;
  type: string;
  properties: Record<string, StateValue>;
  ended: boolean;
  confidence: number;
  time: number;
  episodeId: string;
}

/**
 * Relationships are versioned with valid times: a new edge opens; the same edge with other properties closes the
 * old version and opens a new one (WORKS_ON {role: co-founder} → {role: CTO}); an ended edge is closed. An edge
 * reported as ended that was never seen open is recorded as closed at that time.
 */
export function applyEdge(ctx: PlanContext, edges: OpenEdges, edge: EdgeInput): void {
  if (edge.sourceId === edge.targetId) return;
  const open = edges.get(edge.sourceId, edge.type, edge.targetId);
  if (edge.ended) {
    if (open) {
      ctx.ws.emit({ op: 'relationship.close', id: open.id, validTo: edge.time });
      edges.delete(open);
    } else {
      ctx.ws.emit({ op: 'relationship.insert', relationship: build(ctx, edge, edge.properties, edge.time) });
    }
    return;
  }
  if (open) {
    const same = Object.entries(edge.properties).every(([k, v]) => sameValue(open.properties[k], v));
    if (same) return;
    ctx.ws.emit({ op: 'relationship.close', id: open.id, validTo: edge.time });
    const next = build(ctx, edge, { ...open.properties, ...edge.properties }, null);
    ctx.ws.emit({ op: 'relationship.insert', relationship: next });
    edges.set(next);
    return;
  }
  const created = build(ctx, edge, edge.properties, null);
  ctx.ws.emit({ op: 'relationship.insert', relationship: created });
  edges.set(created);
}

function build(
  ctx: PlanContext,
  edge: EdgeInput,
  properties: Record<string, StateValue>,
  validTo: number | null,
): Relationship {
  return {
    id: ctx.input.newId(),
    type: edge.type,
    sourceId: edge.sourceId,
    targetId: edge.targetId,
    properties,
    validFrom: edge.time,
    validTo,
    confidence: edge.confidence,
    episodeId: edge.episodeId,
    recordedAt: ctx.input.recordedAt,
    discoveredBy: null,
  };
}

/** Extracted relationships and (actor, verb, object) actions. */
export function planRelationships(ctx: PlanContext, edges: OpenEdges): void {
  for (const r of ctx.input.result.relationships) {
    const source = ctx.entity(r.source, r);
    const target = ctx.entity(r.target, r);
    applyEdge(ctx, edges, {
      sourceId: source.id,
      targetId: target.id,
      type: r.type,
      properties: r.properties,
      ended: r.ended,
      confidence: r.confidence,
      time: ctx.timeOf(r),
      episodeId: ctx.episodeOf(r),
    });
  }
  for (const a of ctx.input.result.actions) {
    const actor = ctx.entity(a.actor, a);
    const object = ctx.entity(a.object, a);
    applyEdge(ctx, edges, {
      sourceId: actor.id,
      targetId: object.id,
      type: verbType(a.verb),
      properties: { verb: a.verb },
      ended: false,
      confidence: 0.6,
      time: ctx.timeOf(a),
      episodeId: ctx.episodeOf(a),
    });
  }
}

/** "started working on" → STARTED_WORKING_ON. */
export function verbType(verb: string): string {
  return (
    verb
      .trim()
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || GENERIC_RELATIONSHIP
  );
}
