import type { EntityState, Relationship, StateValue, Transition } from '../../domain/world.js';
import type { EntityActivity } from '../../ports/world-store.js';
import { sameValue } from '../../world/apply/working-set.js';
import { bounded, byImportance, type Bounded, type EntityRef } from './refs.js';
import type { Span } from './span.js';

/** The world at one instant, as the diff needs it. */
export interface WorldAt {
  at: number;
  /** Entities that existed then (first seen by then, not archived), by id. */
  entities: ReadonlyMap<string, EntityRef & { firstSeen: number }>;
  /**
   * Their state then (from the facts valid then), by id, as far as the diff needs it: of an entity in both worlds,
   * the attributes whose values may differ between them (the others are equal at both ends and may be left out); of
   * an entity new in the later world, the whole state of those the diff lists (createdInOrder, cut to the limit).
   */
  states: ReadonlyMap<string, EntityState>;
}

/** Everything a diff is computed from; `before` is the earlier world. */
export interface DiffInput {
  a: Span;
  b: Span;
  /** True when B was given before A in time and they were swapped. */
  swapped: boolean;
  before: WorldAt;
  after: WorldAt;
  /** Relationships that began or ended in (before.at, after.at]. */
  relationships: readonly Relationship[];
  /** Contradiction transitions with event time in (before.at, after.at]. */
  contradictions: readonly Transition[];
  /** Mentions inside A's span and inside B's span. */
  activityA: readonly EntityActivity[];
  activityB: readonly EntityActivity[];
  /** Every entity the inputs refer to, by id. */
  refs: ReadonlyMap<string, EntityRef>;
  /** Most items per list. */
  limit: number;
}

export interface CreatedEntity extends EntityRef {
  firstSeen: number;
  state: EntityState;
}

export interface AttributeChange {
  entity: EntityRef;
  attribute: string;
  from: StateValue;
  to: StateValue;
}

export interface RelationshipChange {
  id: string;
  type: string;
  source: EntityRef;
  target: EntityRef;
  properties: Record<string, StateValue>;
  /** When it began (begun) or ended (ended). */
  time: number;
  /** Its whole validity: since when it held, and until when (null while it still holds). */
  since: number;
  until: number | null;
}

export interface ContradictionChange {
  transitionId: string;
  entity: EntityRef;
  from: EntityState | null;
  to: EntityState;
  summary: string;
  time: number;
  resolved: boolean;
}

export interface ActivityChange {
  entity: EntityRef;
  /** Mentions inside A and inside B. */
  mentionsA: number;
  mentionsB: number;
  /** Last mention inside A (gone quiet) or first inside B (newly active). */
  time: number;
}

export interface WorldDiff {
  a: Span;
  b: Span;
  swapped: boolean;
  /** Entities existing at the end of A and at the end of B. */
  entities: { before: number; after: number };
  limit: number;
  created: Bounded<CreatedEntity>;
  attributesChanged: Bounded<AttributeChange>;
  relationshipsBegun: Bounded<RelationshipChange>;
  relationshipsEnded: Bounded<RelationshipChange>;
  /** Belief entities whose stance flipped (held → abandoned, or held again). */
  beliefsReversed: Bounded<ContradictionChange>;
  /** Other contradictions raised between the two ends. */
  contradictions: Bounded<ContradictionChange>;
  /** Mentioned in A, not in B. */
  goneQuiet: Bounded<ActivityChange>;
  /** Mentioned in B, not in A, though they existed by the end of A. */
  newlyActive: Bounded<ActivityChange>;
}

/** Edges that only say "first seen during this period": implied by `created`, so left out of the diff. */
export const IMPLIED_EDGES: ReadonlySet<string> = new Set(['DURING']);
/** The attribute belief reversals change; reported as reversals, not as attribute changes. */
const STANCE = 'stance';

/**
 * What changed between the world at the end of A and at the end of B (a pure function of the two worlds and the
 * events between them). Every list is most important first, cut to `limit`, with its total.
 */
export function computeWorldDiff(input: DiffInput): WorldDiff {
  const { before, after, limit } = input;
  return {
    a: input.a,
    b: input.b,
    swapped: input.swapped,
    entities: { before: before.entities.size, after: after.entities.size },
    limit,
    created: bounded(created(input), limit),
    attributesChanged: bounded(attributeChanges(input), limit),
    ...relationshipChanges(input),
    ...contradictionChanges(input),
    ...activityChanges(input),
  };
}

/** The entities new in the later world, in the order the diff lists them (most important, then earliest, first). */
export function createdInOrder(input: Pick<DiffInput, 'before' | 'after'>): (EntityRef & { firstSeen: number })[] {
  const out: (EntityRef & { firstSeen: number })[] = [];
  for (const [id, e] of input.after.entities) if (!input.before.entities.has(id)) out.push(e);
  return out.sort((x, y) => y.importance - x.importance || x.firstSeen - y.firstSeen || byImportance(x, y));
}

function created(input: DiffInput): CreatedEntity[] {
  return createdInOrder(input).map((e) => ({ ...e, state: input.after.states.get(e.id) ?? {} }));
}

function attributeChanges(input: DiffInput): AttributeChange[] {
  const out: AttributeChange[] = [];
  for (const [id, e] of input.after.entities) {
    if (!input.before.entities.has(id)) continue;
    const old = input.before.states.get(id);
    const now = input.after.states.get(id);
    if (old === undefined && now === undefined) continue;
    const entity = input.refs.get(id) ?? e;
    for (const attribute of [...new Set([...Object.keys(old ?? {}), ...Object.keys(now ?? {})])].sort()) {
      if (entity.type === 'belief' && attribute === STANCE) continue;
      const from = old?.[attribute] ?? null;
      const to = now?.[attribute] ?? null;
      if (sameValue(from ?? undefined, to ?? undefined)) continue;
      out.push({ entity, attribute, from, to });
    }
  }
  return out.sort((x, y) => byImportance(x.entity, y.entity) || x.attribute.localeCompare(y.attribute));
}

function relationshipChanges(input: DiffInput): Pick<WorldDiff, 'relationshipsBegun' | 'relationshipsEnded'> {
  const { before, after, refs } = input;
  const begun: RelationshipChange[] = [];
  const ended: RelationshipChange[] = [];
  for (const r of input.relationships) {
    if (IMPLIED_EDGES.has(r.type)) continue;
    const source = refs.get(r.sourceId);
    const target = refs.get(r.targetId);
    if (!source || !target) continue;
    const validAtAfter = r.validFrom <= after.at && (r.validTo === null || r.validTo > after.at);
    const validAtBefore = r.validFrom <= before.at && (r.validTo === null || r.validTo > before.at);
    const list =
      validAtAfter && !validAtBefore ? begun : validAtBefore && !validAtAfter && r.validTo !== null ? ended : null;
    if (list === null) continue;
    list.push({
      id: r.id,
      type: r.type,
      source,
      target,
      properties: r.properties,
      since: r.validFrom,
      until: r.validTo,
      time: list === begun ? r.validFrom : (r.validTo ?? r.validFrom),
    });
  }
  const order = (x: RelationshipChange, y: RelationshipChange): number =>
    Math.max(y.source.importance, y.target.importance) - Math.max(x.source.importance, x.target.importance) ||
    x.time - y.time ||
    x.source.name.localeCompare(y.source.name) ||
    x.type.localeCompare(y.type) ||
    x.target.name.localeCompare(y.target.name) ||
    x.id.localeCompare(y.id);
  return {
    relationshipsBegun: bounded(begun.sort(order), input.limit),
    relationshipsEnded: bounded(ended.sort(order), input.limit),
  };
}

function contradictionChanges(input: DiffInput): Pick<WorldDiff, 'beliefsReversed' | 'contradictions'> {
  const beliefs: ContradictionChange[] = [];
  const others: ContradictionChange[] = [];
  for (const t of input.contradictions) {
    if (t.kind !== 'contradiction' || t.eventTime <= input.before.at || t.eventTime > input.after.at) continue;
    const entity = input.refs.get(t.entityId);
    if (!entity) continue;
    const change: ContradictionChange = {
      transitionId: t.id,
      entity,
      from: t.fromState,
      to: t.toState,
      summary: t.summary,
      time: t.eventTime,
      resolved: t.resolvedBy !== null,
    };
    if (entity.type === 'belief' && STANCE in t.toState) beliefs.push(change);
    else others.push(change);
  }
  const order = (x: ContradictionChange, y: ContradictionChange): number =>
    byImportance(x.entity, y.entity) || x.time - y.time || x.transitionId.localeCompare(y.transitionId);
  return {
    beliefsReversed: bounded(beliefs.sort(order), input.limit),
    contradictions: bounded(others.sort(order), input.limit),
  };
}

function activityChanges(input: DiffInput): Pick<WorldDiff, 'goneQuiet' | 'newlyActive'> {
  const inA = new Map(input.activityA.map((x) => [x.entityId, x]));
  const inB = new Map(input.activityB.map((x) => [x.entityId, x]));
  const quiet: ActivityChange[] = [];
  const active: ActivityChange[] = [];
  for (const [id, x] of inA) {
    const entity = input.refs.get(id);
    if (!entity || entity.type === 'period' || inB.has(id) || !input.after.entities.has(id)) continue;
    quiet.push({ entity, mentionsA: x.mentions, mentionsB: 0, time: x.last });
  }
  for (const [id, x] of inB) {
    const entity = input.refs.get(id);
    if (!entity || entity.type === 'period' || inA.has(id) || !input.before.entities.has(id)) continue;
    active.push({ entity, mentionsA: 0, mentionsB: x.mentions, time: x.first });
  }
  const order =
    (key: 'mentionsA' | 'mentionsB') =>
    (x: ActivityChange, y: ActivityChange): number =>
      y.entity.importance - x.entity.importance || y[key] - x[key] || byImportance(x.entity, y.entity);
  return {
    goneQuiet: bounded(quiet.sort(order('mentionsA')), input.limit),
    newlyActive: bounded(active.sort(order('mentionsB')), input.limit),
  };
}
