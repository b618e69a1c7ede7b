import type { Entity, Period, Relationship, Transition } from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';

export interface TimelineRelationship {
  relationship: Relationship;
  direction: 'out' | 'in';
  other: { id: string; name: string; type: string };
}

export interface TimelineSource {
  episodeId: string;
  title: string;
  time: number;
}

export interface EntityTimeline {
  entity: Entity;
  /** Chronological by event time. */
  transitions: Transition[];
  /** Current and ended relationships, by start time. */
  relationships: TimelineRelationship[];
  /** All periods, by start (for anchoring times). */
  periods: Period[];
  /** Episodes the transitions came from, in the order they were written (a story told late is still a late source). */
  sources: TimelineSource[];
}

/** Everything needed to tell an entity's history. */
export async function loadTimeline(input: { store: WorldStore; entity: Entity }): Promise<EntityTimeline> {
  const { store, entity } = input;
  const transitions = (await store.transitions.forEntity(entity.id)).sort((a, b) => a.eventTime - b.eventTime);
  const relationships: TimelineRelationship[] = [];
  for (const r of await store.relationships.forEntity(entity.id, { includeEnded: true })) {
    const out = r.sourceId === entity.id;
    const other = await store.entities.get(out ? r.targetId : r.sourceId);
    if (!other) continue;
    relationships.push({
      relationship: r,
      direction: out ? 'out' : 'in',
      other: { id: other.id, name: other.name, type: other.type },
    });
  }
  relationships.sort((a, b) => a.relationship.validFrom - b.relationship.validFrom);
  // One read for every source; in time order, as episodes are listed (createdAt, then id).
  const ids = transitions.map((t) => t.episodeId).filter((x): x is string => x !== null);
  const sources: TimelineSource[] = (await store.episodes.getMany(ids))
    .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((e) => ({ episodeId: e.id, title: e.title, time: e.createdAt }));
  return { entity, transitions, relationships, periods: await store.periods.list(), sources };
}
