import type { Entity, Transition } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';
import type { SubgraphEntity } from '../types.js';

export interface BlockOptions {
  /** Show superseded history (all changes, within `range` when given) rather than only the latest changes. */
  history: boolean;
  range?: { start: number; end: number } | undefined;
  /** Most transitions shown per entity. */
  maxTransitions: number;
  maxRelationships: number;
}

export const DEFAULT_BLOCK: Omit<BlockOptions, 'history'> = { maxTransitions: 12, maxRelationships: 8 };

/**
 * One entity with the part of its history a question needs. Current mode: the latest changes and any unresolved
 * contradiction, open relationships. History mode: changes in the range (or all), ended relationships too. Long
 * histories keep the first transition and the most recent ones, so the story still has its beginning.
 */
export async function loadEntityBlock(input: {
  store: WorldStore;
  entity: Entity;
  options: BlockOptions;
}): Promise<SubgraphEntity> {
  const { store, entity, options } = input;
  const all = await store.transitions.forEntity(entity.id);
  const transitions = pickTransitions({ all, options });
  // DURING edges repeat what every time in the context already says (the period), so they are left out.
  const edges = (await store.relationships.forEntity(entity.id, { includeEnded: options.history })).filter(
    (r) => r.type !== 'DURING',
  );
  const shown = edges
    .slice()
    .sort((a, b) => (a.validTo === null ? 0 : 1) - (b.validTo === null ? 0 : 1) || b.validFrom - a.validFrom)
    .slice(0, options.maxRelationships);
  const others = new Map(
    (await store.entities.getMany(shown.map((r) => (r.sourceId === entity.id ? r.targetId : r.sourceId)))).map((e) => [
      e.id,
      e,
    ]),
  );
  const relationships = shown.flatMap((relationship) => {
    const out = relationship.sourceId === entity.id;
    const other = others.get(out ? relationship.targetId : relationship.sourceId);
    return other
      ? [
          {
            relationship,
            other: { id: other.id, name: other.name, type: other.type },
            direction: out ? 'out' : 'in',
          } as const,
        ]
      : [];
  });
  const changeCount = all.filter((t) => t.kind !== 'creation').length;
  return { entity, transitions, transitionCount: all.length, changeCount, relationships };
}

/** Pure: which of an entity's transitions (chronological) to show. */
export function pickTransitions(input: { all: readonly Transition[]; options: BlockOptions }): Transition[] {
  const { all, options } = input;
  const max = options.maxTransitions;
  if (!options.history) {
    const latest = all.slice(-3);
    const open = all.filter((t) => t.kind === 'contradiction' && t.resolvedBy === null && !latest.includes(t));
    return [...open, ...latest].sort((a, b) => a.eventTime - b.eventTime).slice(-max);
  }
  const range = options.range;
  const inRange = range ? all.filter((t) => t.eventTime >= range.start && t.eventTime < range.end) : [...all];
  if (inRange.length <= max) return inRange;
  const first = inRange[0];
  const rest = inRange.slice(-(max - 1));
  return first && !rest.includes(first) ? [first, ...rest] : rest;
}
