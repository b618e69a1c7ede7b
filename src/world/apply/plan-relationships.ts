import { GENERIC_RELATIONSHIP, type Relationship, type StateValue } from '../../domain/world.js';
import type { PlanContext } from './context.js';
import { sameValue } from './working-set.js';

/**
 * Open relationships by (source, type, target), seeded from the world and kept current within the batch, and the
 * edges whose latest version has ended (from the world, or closed or recorded ended in this batch).
 */
export class OpenEdges {
  private readonly open = new Map<string, Relationship>();
  /** Each edge whose latest version has ended (and none is open): that version. */
  private readonly ended = new Map<string, Relationship>();
  /** Ended versions of each edge known to the batch (WorldSlice.history, and history recorded in this batch). */
  private readonly past = new Map<string, Relationship[]>();

  constructor(
    existing: readonly Relationship[],
    ended: readonly Relationship[] = [],
    history: readonly Relationship[] = [],
  ) {
    for (const r of existing) if (r.validTo === null) this.open.set(keyOf(r), r);
    for (const r of ended) if (r.validTo !== null && !this.open.has(keyOf(r))) this.ended.set(keyOf(r), r);
    for (const r of history) if (r.validTo !== null) this.remember(r);
  }

  /** The edge's ended versions known to the batch. */
  history(edge: { sourceId: string; type: string; targetId: string }): readonly Relationship[] {
    return this.past.get(keyOf(edge)) ?? [];
  }

  /** An ended version recorded or moved in this batch (it replaces an earlier copy with its id). */
  remember(r: Relationship): void {
    const others = (this.past.get(keyOf(r)) ?? []).filter((p) => p.id !== r.id);
    this.past.set(keyOf(r), [...others, r]);
  }

  /** A version removed in this batch (an ending replaced by the version it closed). */
  forget(r: Relationship): void {
    const key = keyOf(r);
    this.past.set(
      key,
      (this.past.get(key) ?? []).filter((p) => p.id !== r.id),
    );
    if (this.ended.get(key)?.id === r.id) this.ended.delete(key);
  }

  get(sourceId: string, type: string, targetId: string): Relationship | undefined {
    return this.open.get(edgeKey(sourceId, type, targetId));
  }

  /** The edge's latest version when it has ended and no version is open. */
  lastEnded(sourceId: string, type: string, targetId: string): Relationship | undefined {
    return this.ended.get(edgeKey(sourceId, type, targetId));
  }

  set(r: Relationship): void {
    this.open.set(keyOf(r), r);
    this.ended.delete(keyOf(r));
  }

  /** The edge ended with version `r` (closed, or recorded as ended): no version of it is open now. */
  end(r: Relationship): void {
    this.open.delete(keyOf(r));
    this.ended.set(keyOf(r), r);
  }
}

/** An edge's identity (edgeKey) from anything that names its source, type and target. */
export function keyOf(r: { sourceId: string; type: string; targetId: string }): string {
  return edgeKey(r.sourceId, r.type, r.targetId);
}

/** An edge's identity across its versions: source, type and target. */
export function edgeKey(source: string, type: string, target: string): string {
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
 * Relationships are versioned with valid times: a new edge opens; the same edge told again with an earlier start moves
 * its start back; the same edge with other properties closes the old version and opens a new one (WORKS_ON {role:
 * co-founder} → {role: CTO}); an ended edge is closed. An older version or an ending told after a version that began
 * later (extraction out of date order) is recorded as closed history and leaves that version open; an edge told as
 * holding before its recorded ending stays history too (applyBeforeEnding), except that it replaces an ending
 * recorded with no version seen open: it is the version that ending closed. An edge
 * reported as ended that was never seen open is recorded as closed at that time, once: an ending reported again
 * while the edge's latest version has already ended is the same ending told again ("since I lost my job at X"),
 * not a second edge.
 */
export function applyEdge(ctx: PlanContext, edges: OpenEdges, edge: EdgeInput): void {
  if (edge.sourceId === edge.targetId) return;
  const open = edges.get(edge.sourceId, edge.type, edge.targetId);
  if (edge.ended) {
    if (open && edge.time < open.validFrom) {
      // An ending told late, from before the open version began (extracted out of date order): that version
      // started after it, so it stays open; the ending is kept as history of its own.
      recordHistory(ctx, edges, edge, edge.time);
    } else if (open) {
      ctx.ws.emit({ op: 'relationship.close', id: open.id, validTo: edge.time });
      edges.end({ ...open, validTo: edge.time });
    } else if (!edges.lastEnded(edge.sourceId, edge.type, edge.targetId)) {
      const ended = build(ctx, edge, edge.properties, edge.time);
      ctx.ws.emit({ op: 'relationship.insert', relationship: ended });
      edges.end(ended);
    }
    return;
  }
  if (open) {
    const same = saysNothingNew(edge, open);
    // Told again with an earlier start ("I adopted Luna in 2019" after "my dog Luna" in 2024): it held since then.
    if (same && edge.time < open.validFrom) {
      ctx.ws.emit({ op: 'relationship.backdate', id: open.id, validFrom: edge.time });
      edges.set({ ...open, validFrom: edge.time });
    }
    if (same) return;
    if (edge.time < open.validFrom) {
      // An older version told late (WORKS_ON {role: co-founder} in 2024 after {role: CEO} in 2025 was known): it is
      // history that ended when the open version began, which stays open, as a late fact is (WorkingSet).
      recordHistory(ctx, edges, edge, open.validFrom);
      return;
    }
    ctx.ws.emit({ op: 'relationship.close', id: open.id, validTo: edge.time });
    const next = build(ctx, edge, { ...open.properties, ...edge.properties }, null);
    ctx.ws.emit({ op: 'relationship.insert', relationship: next });
    edges.set(next);
    return;
  }
  const last = edges.lastEnded(edge.sourceId, edge.type, edge.targetId);
  if (last?.validTo != null && edge.time < last.validTo) {
    applyBeforeEnding(ctx, edges, edge, last, last.validTo);
    return;
  }
  const created = build(ctx, edge, edge.properties, null);
  ctx.ws.emit({ op: 'relationship.insert', relationship: created });
  edges.set(created);
}

/**
 * An edge told as holding at a time before its latest version ended (extraction out of date order: "I work at Acme"
 * from 2023 read after "I left Acme" in 2025): history inside what is known, never an open edge. The same
 * properties from earlier move that version's start back; other properties from before it are an older version
 * ending where it began; other properties within it split it there, the newer part running to the ending.
 */
function applyBeforeEnding(
  ctx: PlanContext,
  edges: OpenEdges,
  edge: EdgeInput,
  last: Relationship,
  endedAt: number,
): void {
  if (saysNothingNew(edge, last)) {
    if (edge.time < last.validFrom) {
      ctx.ws.emit({ op: 'relationship.backdate', id: last.id, validFrom: edge.time });
      edges.end({ ...last, validFrom: edge.time });
    }
    return;
  }
  if (last.validFrom === endedAt) {
    // Only its ending was known (recorded as ended when it was told, never seen open): what is told from before it
    // is the version that ending closed ("Tidepool uses LangChain for summaries" in March, read after "we ripped
    // LangChain out" in June), so that version takes the ending's place.
    ctx.ws.emit({ op: 'relationship.remove', id: last.id });
    edges.forget(last);
    const held = build(ctx, edge, { ...last.properties, ...edge.properties }, endedAt);
    ctx.ws.emit({ op: 'relationship.insert', relationship: held });
    edges.end(held);
    return;
  }
  if (edge.time <= last.validFrom) {
    recordHistory(ctx, edges, edge, last.validFrom);
    return;
  }
  ctx.ws.emit({ op: 'relationship.close', id: last.id, validTo: edge.time });
  const later = build(ctx, edge, { ...last.properties, ...edge.properties }, endedAt);
  ctx.ws.emit({ op: 'relationship.insert', relationship: later });
  edges.end(later);
}

/**
 * A version of the past told late, ending at `end` (at its own time for an ending), as closed history: nothing new
 * when an ended version with its properties already records it (the same history told again: an older conversation
 * extracted again): the same ending, or a version holding at its time; an earlier start for such a version ending
 * at `end`; else a version of its own.
 */
function recordHistory(ctx: PlanContext, edges: OpenEdges, edge: EdgeInput, end: number): void {
  const same = edges.history(edge).filter((r) => r.validTo !== null && saysNothingNew(edge, r));
  const ending = end === edge.time;
  const known = (r: Relationship): boolean =>
    r.validTo !== null && (ending ? r.validTo === end : r.validFrom <= edge.time && edge.time < r.validTo);
  if (same.some(known)) return;
  const later = same.find((r) => r.validTo === end && r.validFrom > edge.time);
  if (later) {
    ctx.ws.emit({ op: 'relationship.backdate', id: later.id, validFrom: edge.time });
    edges.remember({ ...later, validFrom: edge.time });
    return;
  }
  const older = build(ctx, edge, edge.properties, end);
  ctx.ws.emit({ op: 'relationship.insert', relationship: older });
  edges.remember(older);
}

/** Whether every property the edge is told with is what version `r` already holds (none told: nothing new). */
function saysNothingNew(edge: EdgeInput, r: Relationship): boolean {
  return Object.entries(edge.properties).every(([k, v]) => sameValue(r.properties[k], v));
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
