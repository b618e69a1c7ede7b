import { z } from 'zod';
import type { EntityState } from '../../../domain/world.js';
import type { Contradiction } from '../../../query/world-at/contradictions.js';
import type {
  ActivityChange,
  AttributeChange,
  ContradictionChange,
  CreatedEntity,
  RelationshipChange,
  WorldDiff,
} from '../../../query/world-at/diff-compute.js';
import type { Bounded, EntityRef, SourceRef } from '../../../query/world-at/refs.js';
import type { WorldSnapshot } from '../../../query/world-at/snapshot.js';
import type { Span } from '../../../query/world-at/span.js';
import { iso } from '../respond.js';
import { entityRefSchema, isoTime, refOut, sourceSchema, stateSchema, stateValue } from '../schemas.js';

/** Structured shapes of snapshot, diff and contradictions (ISO times, entity references by id, name and type). */

/** An entity reference with its tier as it was at the time the world is read at (for a diff: at B's end). */
export const tieredRefSchema = entityRefSchema.extend({
  tier: z.enum(['active', 'summarized', 'archived']).describe('tier of attention then'),
});

function tieredRef(e: EntityRef): z.infer<typeof tieredRefSchema> {
  return { ...refOut(e), tier: e.tier };
}

export const spanSchema = z.object({
  kind: z.enum(['period', 'range', 'date', 'now']),
  label: z.string().describe('the period name, time expression or date as resolved'),
  start: isoTime,
  end: isoTime.describe('exclusive'),
  at: isoTime.describe('the instant the world is read at'),
  ongoing: z.boolean(),
});

export function spanOut(s: Span): z.infer<typeof spanSchema> {
  return {
    kind: s.kind,
    label: s.label,
    start: iso(s.start),
    end: iso(s.end),
    at: iso(s.at),
    ongoing: s.ongoing ?? false,
  };
}

export const snapshotSchema = {
  at: isoTime,
  span: spanSchema.nullable(),
  type: z.string().nullable(),
  total: z.number().int().describe('entities that existed then'),
  byType: z.record(z.string(), z.number().int()),
  byTier: z
    .object({ active: z.number().int(), summarized: z.number().int(), archived: z.number().int() })
    .describe('the same entities by the tier each had then'),
  transitions: z.number().int().describe('transitions of those entities up to then'),
  active: z.number().int().nullable().describe('entities mentioned or changed inside the span'),
  entities: z.array(
    tieredRefSchema.extend({
      importance: z.number(),
      firstSeen: isoTime,
      state: stateSchema.describe('the state at that time'),
      changes: z.number().int(),
      activity: z.object({ mentions: z.number().int(), changes: z.number().int() }).nullable(),
    }),
  ),
  relationships: z.array(
    z.object({
      type: z.string(),
      source: tieredRefSchema,
      target: tieredRefSchema,
      properties: stateSchema.describe('e.g. role'),
      since: isoTime,
      until: isoTime.nullable().describe('when it ended, after this time; null while it holds'),
    }),
  ),
};

export function snapshotOut(s: WorldSnapshot) {
  return {
    at: iso(s.at),
    span: s.span ? spanOut(s.span) : null,
    type: s.type,
    total: s.total,
    byType: s.byType,
    byTier: s.byTier,
    transitions: s.transitions,
    active: s.active,
    entities: s.entities.map((e) => ({
      ...tieredRef(e),
      importance: e.importance,
      firstSeen: iso(e.firstSeen),
      state: e.state,
      changes: e.changes,
      activity: e.activity,
    })),
    relationships: s.relationships.map((r) => ({
      type: r.type,
      source: tieredRef(r.source),
      target: tieredRef(r.target),
      properties: r.properties,
      since: iso(r.validFrom),
      until: iso(r.validTo),
    })),
  };
}

const bounded = <T extends z.ZodType>(item: T) =>
  z.object({ total: z.number().int(), items: z.array(item).describe('most important first, cut to `limit`') });

const changeSchema = z.object({
  transitionId: z.string(),
  entity: tieredRefSchema,
  from: stateSchema.nullable(),
  to: stateSchema,
  summary: z.string(),
  time: isoTime,
  resolved: z.boolean(),
});
const edgeChangeSchema = z.object({
  type: z.string(),
  source: tieredRefSchema,
  target: tieredRefSchema,
  properties: stateSchema.describe('e.g. role'),
  time: isoTime.describe('when it began (begun) or ended (ended)'),
  since: isoTime,
  until: isoTime.nullable().describe('null while it holds'),
});
const activitySchema = z.object({
  entity: tieredRefSchema,
  mentionsA: z.number().int(),
  mentionsB: z.number().int(),
  time: isoTime,
});

export const diffSchema = {
  a: spanSchema,
  b: spanSchema,
  swapped: z.boolean().describe('true when B was earlier than A and they were compared in time order'),
  entities: z.object({ before: z.number().int(), after: z.number().int() }),
  created: bounded(tieredRefSchema.extend({ firstSeen: isoTime, state: stateSchema })),
  attributesChanged: bounded(
    z.object({ entity: tieredRefSchema, attribute: z.string(), from: stateValue, to: stateValue }),
  ),
  relationshipsBegun: bounded(edgeChangeSchema),
  relationshipsEnded: bounded(edgeChangeSchema),
  beliefsReversed: bounded(changeSchema),
  contradictions: bounded(changeSchema),
  goneQuiet: bounded(activitySchema),
  newlyActive: bounded(activitySchema),
};

function list<T, U>(b: Bounded<T>, map: (item: T) => U): { total: number; items: U[] } {
  return { total: b.total, items: b.items.map(map) };
}

const change = (c: ContradictionChange) => ({
  transitionId: c.transitionId,
  entity: tieredRef(c.entity),
  from: c.from,
  to: c.to,
  summary: c.summary,
  time: iso(c.time),
  resolved: c.resolved,
});
const edge = (r: RelationshipChange) => ({
  type: r.type,
  source: tieredRef(r.source),
  target: tieredRef(r.target),
  properties: r.properties,
  time: iso(r.time),
  since: iso(r.since),
  until: iso(r.until),
});
const activity = (x: ActivityChange) => ({
  entity: tieredRef(x.entity),
  mentionsA: x.mentionsA,
  mentionsB: x.mentionsB,
  time: iso(x.time),
});

export function diffOut(d: WorldDiff) {
  return {
    a: spanOut(d.a),
    b: spanOut(d.b),
    swapped: d.swapped,
    entities: d.entities,
    created: list(d.created, (e: CreatedEntity) => ({ ...tieredRef(e), firstSeen: iso(e.firstSeen), state: e.state })),
    attributesChanged: list(d.attributesChanged, (c: AttributeChange) => ({
      entity: tieredRef(c.entity),
      attribute: c.attribute,
      from: c.from,
      to: c.to,
    })),
    relationshipsBegun: list(d.relationshipsBegun, edge),
    relationshipsEnded: list(d.relationshipsEnded, edge),
    beliefsReversed: list(d.beliefsReversed, change),
    contradictions: list(d.contradictions, change),
    goneQuiet: list(d.goneQuiet, activity),
    newlyActive: list(d.newlyActive, activity),
  };
}

export const contradictionSchema = z.object({
  kind: z.enum(['state', 'edge']).describe('state: a state change against what was known; edge: a CONTRADICTS link'),
  id: z.string().describe('the transition id (state) or relationship id (edge)'),
  entity: entityRefSchema.describe('the entity whose state flipped, or the contradicted one'),
  contradictedBy: entityRefSchema.nullable(),
  summary: z.string(),
  from: stateSchema.nullable(),
  to: stateSchema.nullable(),
  time: isoTime,
  resolved: z.boolean(),
  resolution: z.object({ summary: z.string(), time: isoTime }).nullable(),
  source: sourceSchema.nullable(),
});

export function contradictionOut(c: Contradiction): z.infer<typeof contradictionSchema> {
  if (c.kind === 'state') {
    return {
      kind: 'state',
      id: c.transitionId,
      entity: refOut(c.entity),
      contradictedBy: c.contradictedBy ? refOut(c.contradictedBy) : null,
      summary: c.summary,
      from: c.from,
      to: c.to as EntityState,
      time: iso(c.time),
      resolved: c.resolved,
      resolution: c.resolution ? { summary: c.resolution.summary, time: iso(c.resolution.time) } : null,
      source: sourceOut(c.source),
    };
  }
  return {
    kind: 'edge',
    id: c.relationshipId,
    entity: refOut(c.target),
    contradictedBy: refOut(c.source),
    summary: `${c.source.name} contradicts ${c.target.name}`,
    from: null,
    to: null,
    time: iso(c.time),
    resolved: c.resolved,
    resolution: c.ended === null ? null : { summary: 'the conflict was closed', time: iso(c.ended) },
    source: sourceOut(c.episode),
  };
}

function sourceOut(s: SourceRef | null) {
  return s ? { episodeId: s.episodeId, title: s.title, time: iso(s.time) } : null;
}
