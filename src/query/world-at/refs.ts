import type { Entity, Tier } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';

/** Enough of an entity to name it, rank it and badge it. */
export interface EntityRef {
  id: string;
  name: string;
  type: string;
  importance: number;
  /** Its tier: at the instant the world is read at when the ref comes from that world, else its current tier. */
  tier: Tier;
}

export function refOf(e: Pick<Entity, 'id' | 'name' | 'type' | 'importance' | 'tier'>, tier: Tier = e.tier): EntityRef {
  return { id: e.id, name: e.name, type: e.type, importance: e.importance, tier };
}

/** A list cut to its most important items, with how many there were in all. */
export interface Bounded<T> {
  total: number;
  items: T[];
}

export function bounded<T>(items: readonly T[], limit: number): Bounded<T> {
  return { total: items.length, items: items.slice(0, limit) };
}

/** Most important first, then by name (stable, deterministic). */
export function byImportance(a: EntityRef, b: EntityRef): number {
  // The same entity (several changes of one) needs no collation: comparing names is most of a large diff's sorting.
  if (a.id === b.id) return b.importance - a.importance;
  return b.importance - a.importance || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
}

/** Refs of the given ids that are not already in `known` are loaded and added; returns `known`. */
export async function loadRefs(input: {
  store: WorldStore;
  ids: Iterable<string>;
  known: Map<string, EntityRef>;
}): Promise<Map<string, EntityRef>> {
  const missing = [...new Set(input.ids)].filter((id) => !input.known.has(id));
  if (missing.length > 0) {
    for (const e of await input.store.entities.getMany(missing)) input.known.set(e.id, refOf(e));
  }
  return input.known;
}

/** The episode a record came from, for provenance. */
export interface SourceRef {
  episodeId: string;
  title: string;
  time: number;
}

export async function loadSources(input: {
  store: WorldStore;
  ids: Iterable<string | null>;
}): Promise<Map<string, SourceRef>> {
  const ids = [...new Set([...input.ids].filter((id): id is string => id !== null))];
  const out = new Map<string, SourceRef>();
  if (ids.length === 0) return out;
  for (const e of await input.store.episodes.getMany(ids)) {
    out.set(e.id, { episodeId: e.id, title: e.title, time: e.createdAt });
  }
  return out;
}
