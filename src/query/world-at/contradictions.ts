import type { EntityState, Relationship, Transition } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';
import { findEntity } from '../../world/lookup.js';
import { loadRefs, loadSources, refOf, type EntityRef, type SourceRef } from './refs.js';

/** A contradiction transition: an entity's state flipped against what was known (a pivot, a reversed belief). */
export interface StateContradiction {
  kind: 'state';
  transitionId: string;
  entity: EntityRef;
  from: EntityState | null;
  to: EntityState;
  summary: string;
  time: number;
  confidence: number;
  source: SourceRef | null;
  resolved: boolean;
  /** The resolution transition that closed it. */
  resolution: { transitionId: string; summary: string; time: number } | null;
  /** The belief recorded as contradicting this one in the same conversation (a CONTRADICTS edge), if any. */
  contradictedBy: EntityRef | null;
}

/** A CONTRADICTS edge between two beliefs (or other entities) not explained by a listed state contradiction. */
export interface EdgeContradiction {
  kind: 'edge';
  relationshipId: string;
  source: EntityRef;
  target: EntityRef;
  time: number;
  /** When the conflict was closed (the edge ended); null while open. */
  ended: number | null;
  resolved: boolean;
  episode: SourceRef | null;
}

export type Contradiction = StateContradiction | EdgeContradiction;

const CONTRADICTS = 'CONTRADICTS';

/**
 * Open contradictions (get_contradictions): contradiction transitions not closed by a resolution, and the
 * CONTRADICTS edges that are still open. With `all`, resolved ones too, marked as such. With `entityName`, only
 * those about that entity. Unresolved first, then newest first.
 */
export async function listContradictions(input: {
  store: WorldStore;
  entityName?: string;
  all?: boolean;
}): Promise<Contradiction[]> {
  const { store } = input;
  const all = input.all ?? false;
  const entity = input.entityName === undefined ? null : await findEntity({ store, name: input.entityName });
  const transitions = await store.transitions.list({
    kind: 'contradiction',
    ...(all ? {} : { unresolved: true }),
    ...(entity ? { entityIds: [entity.id] } : {}),
    order: 'desc',
  });
  const edges = (await contradictsEdges({ store, entityId: entity?.id ?? null })).filter(
    (r) => all || r.validTo === null,
  );
  const refs = await loadRefs({
    store,
    ids: [...transitions.map((t) => t.entityId), ...edges.flatMap((r) => [r.sourceId, r.targetId])],
    known: new Map(entity ? [[entity.id, refOf(entity)]] : []),
  });
  const sources = await loadSources({
    store,
    ids: [...transitions.map((t) => t.episodeId), ...edges.map((r) => r.episodeId)],
  });
  const resolutions = await resolutionsOf({ store, transitions });

  const items: Contradiction[] = [];
  const byEntityEpisode = new Map<string, StateContradiction>();
  for (const t of transitions) {
    const ref = refs.get(t.entityId);
    if (!ref) continue;
    const item: StateContradiction = {
      kind: 'state',
      transitionId: t.id,
      entity: ref,
      from: t.fromState,
      to: t.toState,
      summary: t.summary,
      time: t.eventTime,
      confidence: t.confidence,
      source: t.episodeId ? (sources.get(t.episodeId) ?? null) : null,
      resolved: t.resolvedBy !== null,
      resolution: t.resolvedBy ? (resolutions.get(t.resolvedBy) ?? null) : null,
      contradictedBy: null,
    };
    items.push(item);
    byEntityEpisode.set(`${t.entityId}|${t.episodeId ?? ''}`, item);
  }
  for (const r of edges) {
    const source = refs.get(r.sourceId);
    const target = refs.get(r.targetId);
    if (!source || !target) continue;
    // "B replaces A" records both a contradiction on A and B CONTRADICTS A: one conflict, told once.
    const told = byEntityEpisode.get(`${r.targetId}|${r.episodeId ?? ''}`);
    if (told && told.contradictedBy === null) {
      told.contradictedBy = source;
      continue;
    }
    items.push({
      kind: 'edge',
      relationshipId: r.id,
      source,
      target,
      time: r.validFrom,
      ended: r.validTo,
      resolved: r.validTo !== null,
      episode: r.episodeId ? (sources.get(r.episodeId) ?? null) : null,
    });
  }
  return items.sort(
    (x, y) =>
      Number(x.resolved) - Number(y.resolved) ||
      y.time - x.time ||
      nameOf(x).localeCompare(nameOf(y)) ||
      idOf(x).localeCompare(idOf(y)),
  );
}

function nameOf(c: Contradiction): string {
  return c.kind === 'state' ? c.entity.name : c.target.name;
}

function idOf(c: Contradiction): string {
  return c.kind === 'state' ? c.transitionId : c.relationshipId;
}

/** CONTRADICTS edges, open and ended: of one entity, or of the whole world. */
async function contradictsEdges(input: { store: WorldStore; entityId: string | null }): Promise<Relationship[]> {
  const found = input.entityId
    ? await input.store.relationships.forEntity(input.entityId, { includeEnded: true })
    : await input.store.relationships.changedBetween({ since: 0, until: Number.MAX_SAFE_INTEGER });
  const byId = new Map<string, Relationship>();
  for (const r of found) if (r.type === CONTRADICTS) byId.set(r.id, r);
  return [...byId.values()];
}

async function resolutionsOf(input: {
  store: WorldStore;
  transitions: readonly Transition[];
}): Promise<Map<string, { transitionId: string; summary: string; time: number }>> {
  const ids = input.transitions.map((t) => t.resolvedBy).filter((id): id is string => id !== null);
  const out = new Map<string, { transitionId: string; summary: string; time: number }>();
  if (ids.length === 0) return out;
  for (const t of await input.store.transitions.getMany(ids)) {
    out.set(t.id, { transitionId: t.id, summary: t.summary, time: t.eventTime });
  }
  return out;
}
