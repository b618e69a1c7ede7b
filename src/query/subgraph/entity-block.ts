import { genericLast, isEventChange, isWorldChange, type Entity, type Transition } from '../../domain/world.js';
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
/** A person's latest events listed in one line besides the latest changes (current mode). */
const RECENT_EVENTS = 25;

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
  // The entity's changes and its edges are independent reads: on a server store they run side by side.
  const changes = async () => {
    const counts = sum(await store.transitions.countByKind({ entityId: entity.id }));
    return { counts, ...(await loadCandidates({ store, entityId: entity.id, options, total: counts.total })) };
  };
  // DURING edges repeat what every time in the context already says (the period), so they are left out; a hub's
  // edges are cut in SQL (open first, typed before co-mention links, newest first) and shown in that order.
  const edges = async () => {
    const shown = (
      await store.relationships.forEntity(entity.id, {
        includeEnded: options.history,
        excludeTypes: ['DURING'],
        limit: options.maxRelationships,
      })
    ).sort(
      (a, b) =>
        (a.validTo === null ? 0 : 1) - (b.validTo === null ? 0 : 1) ||
        genericLast(a) - genericLast(b) ||
        b.validFrom - a.validFrom,
    );
    const ends = await store.entities.getMany(shown.map((r) => (r.sourceId === entity.id ? r.targetId : r.sourceId)));
    return { shown, others: new Map(ends.map((e) => [e.id, e])) };
  };
  const [{ counts, candidates, inScope, latest }, { shown, others }] = await Promise.all([changes(), edges()]);
  const transitions = pickTransitions({ all: candidates, options });
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
  // What a person did lately is one compact line beside the latest changes (events set one attribute, so the
  // state holds only the last of them).
  const recentEvents = latest
    .filter((t) => isEventChange(t) && !transitions.some((x) => x.id === t.id))
    .slice(0, RECENT_EVENTS);
  return {
    entity,
    transitions,
    ...(recentEvents.length > 0 ? { recentEvents } : {}),
    transitionCount: counts.total,
    changeCount: counts.changes,
    hiddenCount: Math.max(0, inScope - transitions.length),
    relationships,
  };
}

/**
 * Only the transitions `pickTransitions` can choose from, read with bounded queries (a hub entity may have
 * thousands): current mode, the latest three (and the recent events after them, `latest`, newest first) and the
 * unresolved contradictions; history mode, the first and the
 * latest `maxTransitions` in the range. `inScope` counts what the mode could have shown.
 */
async function loadCandidates(input: {
  store: WorldStore;
  entityId: string;
  options: BlockOptions;
  total: number;
}): Promise<{ candidates: Transition[]; inScope: number; latest: Transition[] }> {
  const { store, options } = input;
  const mine = { entityIds: [input.entityId] };
  if (!options.history) {
    // One read serves both the latest three changes and the recent events listed after them.
    const [latest, open] = await Promise.all([
      store.transitions.list({ ...mine, order: 'desc', limit: 3 + RECENT_EVENTS }),
      store.transitions.list({ ...mine, unresolved: true, limit: options.maxTransitions }),
    ]);
    return { candidates: chronological([...latest, ...open]), inScope: input.total, latest };
  }
  const range = options.range;
  const scope = range ? { ...mine, since: range.start, until: range.end } : mine;
  const [first, latest, inScope] = await Promise.all([
    store.transitions.list({ ...scope, limit: 1 }),
    store.transitions.list({ ...scope, order: 'desc', limit: options.maxTransitions }),
    range
      ? store.transitions
          .countByKind({ entityId: input.entityId, since: range.start, until: range.end })
          .then((c) => sum(c).total)
      : Promise.resolve(input.total),
  ]);
  return { candidates: chronological([...first, ...latest]), inScope, latest: [] };
}

function sum(byKind: Partial<Record<Transition['kind'], number>>): { total: number; changes: number } {
  const counts = Object.entries(byKind) as [Transition['kind'], number | undefined][];
  const total = counts.reduce((n, [, c]) => n + (c ?? 0), 0);
  return { total, changes: counts.reduce((n, [kind, c]) => n + (isWorldChange(kind) ? (c ?? 0) : 0), 0) };
}

function chronological(transitions: readonly Transition[]): Transition[] {
  const unique = [...new Map(transitions.map((t) => [t.id, t])).values()];
  return unique.sort((a, b) => a.eventTime - b.eventTime || a.recordedAt - b.recordedAt || (a.id < b.id ? -1 : 1));
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
  // The candidates may be a sample (first + latest), so keep their order and take the first plus the tail.
  if (inRange.length <= max) return inRange;
  const first = inRange[0];
  const rest = inRange.slice(-(max - 1));
  return first && !rest.includes(first) ? [first, ...rest] : rest;
}
