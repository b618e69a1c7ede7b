/** Builders for planner tests (not used by production code). */
import { extractionResultSchema, type ExtractionResultInput } from '../../extract/result.js';
import type { Fact, Relationship } from '../../domain/world.js';
import { normalizeName } from '../../resolve/normalize.js';
import type { PlanInput } from './context.js';
import type { Mutation } from './mutations.js';
import { planApply } from './plan.js';
import type { EntitySnapshot, NameRef, WorldSlice } from './working-set.js';

export const T0 = Date.UTC(2024, 2, 15, 12);
export const DAY = 86_400_000;

export interface KnownEntity {
  id: string;
  type: string;
  name: string;
  state?: Record<string, string>;
  since?: number;
  /** Its creation transition as the slice carries it (see EntitySnapshot.creation). */
  creation?: EntitySnapshot['creation'];
}

export function snapshot(e: KnownEntity): EntitySnapshot {
  const since = e.since ?? T0 - 30 * DAY;
  const facts: Fact[] = Object.entries(e.state ?? {}).map(([attribute, value]) => ({
    id: `fact-${e.id}-${attribute}`,
    entityId: e.id,
    attribute,
    value,
    validFrom: since,
    validTo: null,
    supersededBy: null,
    episodeId: 'old',
    recordedAt: since,
    confidence: 1,
  }));
  return {
    id: e.id,
    type: e.type,
    name: e.name,
    aliases: [],
    firstSeen: since,
    lastSeen: since,
    state: { ...(e.state ?? {}) },
    facts,
    ...(e.creation ? { creation: e.creation } : {}),
  };
}

/**
 * Plans a result against known entities. Names resolve by normalized name to known entities; unknown names get
 * ids "new:<normalized name>" and the type the result declares (else "concept").
 */
export function plan(input: {
  result: Omit<ExtractionResultInput, 'batch'> & { batch?: ExtractionResultInput['batch'] };
  known?: KnownEntity[];
  relationships?: Relationship[];
  /** Ended edges the slice carries (see WorldSlice.ended). */
  ended?: Relationship[];
  /** Closed facts the slice carries (see WorldSlice.closed). */
  closed?: Fact[];
  /** Ended edge versions the slice carries (see WorldSlice.history). */
  history?: Relationship[];
  /** DURING links of entities with a late creation (see WorldSlice.during). */
  during?: Relationship[];
  episodeTimes?: Record<string, number>;
  episodeTitles?: Record<string, string>;
}): Mutation[] {
  const result = extractionResultSchema.parse({
    batch: input.result.batch ?? { id: '2024-03-15', date: new Date(T0).toISOString(), episodeIds: ['ep1'] },
    ...input.result,
  });
  const known = input.known ?? [];
  const refs = new Map<string, NameRef>();
  for (const k of known)
    refs.set(normalizeName(k.name), { id: k.id, type: k.type, name: k.name, isNew: false, aliases: [] });
  const declared = new Map(result.entities.map((e) => [normalizeName(e.name), e]));
  const names = [
    ...result.entities.map((e) => e.name),
    ...result.stateChanges.map((c) => c.entityName),
    ...result.relationships.flatMap((r) => [r.source, r.target]),
    ...result.beliefs.flatMap((b) => [b.statement, ...(b.replaces ? [b.replaces] : [])]),
    ...result.decisions.flatMap((d) => [d.summary, ...d.relatedEntities]),
    ...result.actions.flatMap((a) => [a.actor, a.object]),
    ...result.locations,
    ...(result.periodContext ? [result.periodContext] : []),
  ];
  for (const name of names) {
    const key = normalizeName(name);
    if (refs.has(key)) continue;
    const d = declared.get(key);
    refs.set(key, { id: `new:${key}`, type: d?.type ?? 'concept', name, isNew: true, aliases: d?.aliases ?? [] });
  }
  const slice: WorldSlice = {
    entities: new Map(known.map((k) => [k.id, snapshot(k)])),
    relationships: input.relationships ?? [],
    ended: input.ended ?? [],
    closed: input.closed ?? [],
    history: input.history ?? [],
    during: input.during ?? [],
    periods: new Map(),
  };
  let n = 0;
  const planInput: PlanInput = {
    result,
    refs,
    episodeTimes: new Map(Object.entries(input.episodeTimes ?? { ep1: T0 })),
    episodeTitles: new Map(Object.entries(input.episodeTitles ?? { ep1: 'Planning day' })),
    batchTime: T0,
    recordedAt: T0 + DAY,
    selfRef: { id: 'self', type: 'person', name: 'User', isNew: false, aliases: [] },
    newId: () => `id${++n}`,
  };
  return planApply(planInput, {
    ...slice,
    entities: new Map([...slice.entities, ['self', snapshot({ id: 'self', type: 'person', name: 'User' })]]),
  });
}

export function ops<K extends Mutation['op']>(mutations: Mutation[], op: K): Extract<Mutation, { op: K }>[] {
  return mutations.filter((m): m is Extract<Mutation, { op: K }> => m.op === op);
}

/** An edge of the world a plan starts from: open, from an old episode, recorded when it began, unless said otherwise. */
export function edge(
  partial: Partial<Relationship> & Pick<Relationship, 'id' | 'type' | 'sourceId' | 'targetId' | 'validFrom'>,
): Relationship {
  return {
    properties: {},
    validTo: null,
    confidence: 0.9,
    episodeId: 'old',
    recordedAt: partial.validFrom,
    discoveredBy: null,
    ...partial,
  };
}
