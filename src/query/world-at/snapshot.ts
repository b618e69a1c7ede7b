import type { EntityState, Period, StateValue, Tier } from '../../domain/world.js';
import type { EntityBrief, WorldStore } from '../../ports/world-store.js';
import { resolveEntityType } from '../../world/entity-types.js';
import { entitiesAt } from './existing.js';
import { loadRefs, refOf, type EntityRef } from './refs.js';
import type { Span } from './span.js';

/** Mentions and changes of an entity inside the span a snapshot was asked for. */
export interface SpanActivity {
  mentions: number;
  changes: number;
}

export interface SnapshotEntity extends EntityRef {
  /** The tier at the snapshot's time (an entity archived later shows as it was then). */
  tier: Tier;
  firstSeen: number;
  /** The state at the snapshot's time, rebuilt from the facts valid then. */
  state: EntityState;
  /** Changes (transitions other than its creation) up to the snapshot's time. */
  changes: number;
  /** Activity inside the span; null when the snapshot is not of a span (the present, or a bare instant). */
  activity: SpanActivity | null;
}

export interface SnapshotRelationship {
  id: string;
  type: string;
  source: EntityRef;
  target: EntityRef;
  properties: Record<string, StateValue>;
  validFrom: number;
  /** When it ended (after the snapshot's instant), null while it still holds. */
  validTo: number | null;
}

export interface WorldSnapshot {
  /** The instant the world is read at (event time). */
  at: number;
  span: Span | null;
  /** The period the span names, if it names one. */
  period: Period | null;
  type: string | null;
  /** Entities that existed at `at` (first seen by then, archived ones included), of `type` when given. */
  total: number;
  byType: Record<string, number>;
  /** The same entities by the tier each had at `at`. */
  byTier: Record<Tier, number>;
  /** Transitions of those entities up to `at`. */
  transitions: number;
  /** How many of them were mentioned or changed inside the span; null without a span. */
  active: number | null;
  limit: number;
  /** The `limit` first: most important, then most active in the span, then most recently seen, then by name. */
  entities: SnapshotEntity[];
  /** Relationships of the listed entities that were valid at `at`. */
  relationships: SnapshotRelationship[];
}

export const DEFAULT_SNAPSHOT_LIMIT = 50;

/**
 * The world as it was at `at` (DESIGN.md §2: the replay of facts and transitions with event time ≤ at): the
 * entities that existed, their state from the facts valid then, their relationships valid then and the number of
 * transitions so far. With a span (a period, a month, a day), also which entities were active inside it.
 */
export async function snapshotAt(input: {
  store: WorldStore;
  at: number;
  span?: Span;
  limit?: number;
  /** Only entities of this type (matched as matchEntityType does; unknown → INVALID_ARGUMENT). */
  type?: string;
}): Promise<WorldSnapshot> {
  const { store, at } = input;
  const limit = input.limit ?? DEFAULT_SNAPSHOT_LIMIT;
  const span = input.span ?? null;
  // As stored (`Tool` and KIP's `ClinicalTrial` find `tool` and `clinical_trial`); an unknown type is an error.
  const type = input.type === undefined ? undefined : await resolveEntityType({ store, type: input.type });
  const present = await entitiesAt({ store, at, ...(type === undefined ? {} : { type }) });
  const all = present.map((p) => p.entity);
  const tierAt = new Map(present.map((p) => [p.entity.id, p.tier]));
  const existing = new Set(all.map((e) => e.id));
  const inSpan = span !== null && span.kind !== 'now';
  // Counted in SQL: reading every transition up to `at` to count them took about a second on a 200k-row history.
  const [upTo, within] = await Promise.all([
    store.transitions.countByEntity({ until: at + 1 }),
    inSpan ? store.transitions.countByEntity({ since: span.start, until: at + 1 }) : Promise.resolve([]),
  ]);
  let transitions = 0;
  const changes = new Map<string, number>();
  for (const c of upTo) {
    if (!existing.has(c.entityId)) continue;
    transitions += c.total;
    changes.set(c.entityId, c.changes);
  }
  const spanChanges = new Map<string, number>();
  for (const c of within) if (existing.has(c.entityId)) spanChanges.set(c.entityId, c.changes);
  const mentions = new Map<string, number>();
  if (inSpan) {
    for (const a of await store.mentions.activeBetween({ since: span.start, until: Math.min(span.end, at + 1) })) {
      if (existing.has(a.entityId)) mentions.set(a.entityId, a.mentions);
    }
  }
  const activityOf = (id: string): SpanActivity | null =>
    inSpan ? { mentions: mentions.get(id) ?? 0, changes: spanChanges.get(id) ?? 0 } : null;
  const weight = (id: string): number => (mentions.get(id) ?? 0) + (spanChanges.get(id) ?? 0);

  // Seen after `at` counts as seen at `at`: the entity was still around then.
  const recency = (e: EntityBrief): number => Math.min(e.lastSeen, at);
  // Archived ones last: they existed, but they are not what a snapshot is read for.
  const resting = (e: EntityBrief): number => (tierAt.get(e.id) === 'archived' ? 1 : 0);
  const ranked = [...all].sort(
    (a, b) =>
      resting(a) - resting(b) ||
      b.importance - a.importance ||
      weight(b.id) - weight(a.id) ||
      recency(b) - recency(a) ||
      a.name.localeCompare(b.name) ||
      a.id.localeCompare(b.id),
  );
  const shown = ranked.slice(0, limit);
  const ids = shown.map((e) => e.id);
  const states = new Map<string, EntityState>();
  if (ids.length > 0) {
    for (const f of await store.facts.validAt({ time: at, entityIds: ids })) {
      const state = states.get(f.entityId) ?? {};
      state[f.attribute] = f.value;
      states.set(f.entityId, state);
    }
  }
  const entities: SnapshotEntity[] = shown.map((e) => ({
    ...refOf(e, tierAt.get(e.id)),
    firstSeen: e.firstSeen,
    state: states.get(e.id) ?? {},
    changes: changes.get(e.id) ?? 0,
    activity: activityOf(e.id),
  }));

  const byType: Record<string, number> = {};
  for (const e of all) byType[e.type] = (byType[e.type] ?? 0) + 1;
  const byTier: Record<Tier, number> = { active: 0, summarized: 0, archived: 0 };
  for (const p of present) byTier[p.tier] += 1;
  const active = inSpan ? all.filter((e) => weight(e.id) > 0).length : null;
  return {
    at,
    span,
    period: span?.periodId ? await store.periods.get(span.periodId) : null,
    type: type ?? null,
    total: all.length,
    byType,
    byTier,
    transitions,
    active,
    limit,
    entities,
    relationships: await relationshipsAt({
      store,
      at,
      ids,
      known: new Map(all.map((e) => [e.id, refOf(e, tierAt.get(e.id))])),
    }),
  };
}

async function relationshipsAt(input: {
  store: WorldStore;
  at: number;
  ids: string[];
  known: Map<string, EntityRef>;
}): Promise<SnapshotRelationship[]> {
  if (input.ids.length === 0) return [];
  const edges = await input.store.relationships.validAt({ time: input.at, entityIds: input.ids });
  const refs = await loadRefs({
    store: input.store,
    ids: edges.flatMap((r) => [r.sourceId, r.targetId]),
    known: input.known,
  });
  const out: SnapshotRelationship[] = [];
  for (const r of edges) {
    const source = refs.get(r.sourceId);
    const target = refs.get(r.targetId);
    if (!source || !target) continue;
    const { id, type, properties, validFrom, validTo } = r;
    out.push({ id, type, source, target, properties, validFrom, validTo });
  }
  return out;
}
