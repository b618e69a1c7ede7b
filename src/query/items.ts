import type { Entity, Episode, Transition } from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';
import type { RankedItem } from './types.js';

/** A ranked item with the rows it refers to, for listing search results. */
export type DescribedItem = RankedItem &
  (
    | { kind: 'entity'; entity: Entity }
    | { kind: 'transition'; transition: Transition; entity: Entity | null; episode: Episode | null }
    | { kind: 'episode'; episode: Episode }
    | { kind: 'turn'; episode: Episode; seq: number }
  );

/** Loads the entities, transitions and episodes the items name (items whose row is gone are dropped). */
export async function describeItems(input: {
  store: WorldStore;
  items: readonly RankedItem[];
}): Promise<DescribedItem[]> {
  const { store, items } = input;
  const ids = (kind: RankedItem['ref']['kind']) =>
    items.flatMap((i) => (i.ref.kind === kind && 'id' in i.ref ? [i.ref.id] : []));
  const transitions = new Map((await store.transitions.getMany(ids('transition'))).map((t) => [t.id, t]));
  const entityIds = [...ids('entity'), ...[...transitions.values()].map((t) => t.entityId)];
  const entities = new Map((await store.entities.getMany([...new Set(entityIds)])).map((e) => [e.id, e]));
  const episodeIds = [
    ...ids('episode'),
    ...items.flatMap((i) => (i.ref.kind === 'turn' ? [i.ref.episodeId] : [])),
    ...[...transitions.values()].flatMap((t) => (t.episodeId ? [t.episodeId] : [])),
  ];
  const episodes = new Map((await store.episodes.getMany([...new Set(episodeIds)])).map((e) => [e.id, e]));
  const out: DescribedItem[] = [];
  for (const item of items) {
    const ref = item.ref;
    if (ref.kind === 'entity') {
      const entity = entities.get(ref.id);
      if (entity) out.push({ ...item, kind: 'entity', entity });
    } else if (ref.kind === 'transition') {
      const transition = transitions.get(ref.id);
      if (transition) {
        const entity = entities.get(transition.entityId) ?? null;
        const episode = transition.episodeId ? (episodes.get(transition.episodeId) ?? null) : null;
        out.push({ ...item, kind: 'transition', transition, entity, episode });
      }
    } else if (ref.kind === 'episode') {
      const episode = episodes.get(ref.id);
      if (episode) out.push({ ...item, kind: 'episode', episode });
    } else {
      const episode = episodes.get(ref.episodeId);
      if (episode) out.push({ ...item, kind: 'turn', episode, seq: ref.seq });
    }
  }
  return out;
}
