import type { Relationship } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';
import type { PathHop } from '../types.js';

const MAX_FRONTIER = 30;
/** Edges read per node (open first, newest first), so a hub does not dominate the search. */
const EDGES_PER_NODE = 50;
/** Neighbours whose entity type is read at once. */
const TYPE_CHUNK = 64;

/**
 * Shortest connections between two entities over relationships (either direction), breadth first up to
 * `maxHops`, at most `maxPaths` paths of the shortest length found. Frontiers are capped so a hub cannot make it
 * explode.
 */
export async function findPaths(input: {
  store: WorldStore;
  from: string;
  to: string;
  maxHops: number;
  maxPaths: number;
  includeEnded: boolean;
  /** Entity types that may not be intermediate hops (e.g. periods, which connect everything that happened then). */
  avoidTypes?: readonly string[];
}): Promise<PathHop[][]> {
  const { store, from, to } = input;
  if (from === to) return [];
  const avoid = new Set(input.avoidTypes ?? []);
  const typeOf = new Map<string, string>();
  type Trail = { at: string; edges: Relationship[] };
  let frontier: Trail[] = [{ at: from, edges: [] }];
  const seen = new Set([from]);
  for (let hop = 1; hop <= input.maxHops && frontier.length > 0; hop++) {
    const next: Trail[] = [];
    const found: Relationship[][] = [];
    const reachedThisHop = new Set<string>();
    // The frontier's edges are read side by side (a server store runs them at once), in frontier order.
    const edgesOf: Relationship[][] = await Promise.all(
      frontier.map((trail) =>
        store.relationships.forEntity(trail.at, {
          includeEnded: input.includeEnded,
          ...(avoid.has('period') ? { excludeTypes: ['DURING'] } : {}),
          limit: EDGES_PER_NODE,
        }),
      ),
    );
    // Only a neighbour that may join the next frontier needs its type checked, and the frontier fills after about
    // MAX_FRONTIER of them: types are read in chunks, in order, while it is not full (not for every edge read).
    const candidates = frontier.flatMap((trail, i) =>
      (edgesOf[i] ?? []).flatMap((r) => {
        const other = r.sourceId === trail.at ? r.targetId : r.sourceId;
        return seen.has(other) ? [] : [{ trail, r, other }];
      }),
    );
    let typed = 0;
    for (const [k, { trail, r, other }] of candidates.entries()) {
      const open = next.length < MAX_FRONTIER;
      if (other !== to && !open) continue;
      if (other !== to && avoid.size > 0 && k >= typed) {
        typed = Math.min(candidates.length, k + TYPE_CHUNK);
        const unknown = candidates.slice(k, typed).flatMap((c) => (typeOf.has(c.other) ? [] : [c.other]));
        for (const e of await store.entities.getMany([...new Set(unknown)])) typeOf.set(e.id, e.type);
      }
      if (other !== to && avoid.has(typeOf.get(other) ?? '')) continue;
      const trailEdges = [...trail.edges, r];
      if (other === to) found.push(trailEdges);
      else {
        next.push({ at: other, edges: trailEdges });
        reachedThisHop.add(other);
      }
    }
    if (found.length > 0) return toHops(store, from, found.slice(0, input.maxPaths));
    for (const id of reachedThisHop) seen.add(id);
    frontier = next;
  }
  return [];
}

async function toHops(store: WorldStore, from: string, paths: Relationship[][]): Promise<PathHop[][]> {
  const ids = new Set(paths.flat().flatMap((r) => [r.sourceId, r.targetId]));
  const byId = new Map((await store.entities.getMany([...ids])).map((e) => [e.id, e]));
  const brief = (id: string) => {
    const e = byId.get(id);
    return { id, name: e?.name ?? id, type: e?.type ?? 'unknown' };
  };
  return paths.map((edges) => {
    let at = from;
    return edges.map((relationship) => {
      const next = relationship.sourceId === at ? relationship.targetId : relationship.sourceId;
      const hop = { from: brief(at), to: brief(next), relationship };
      at = next;
      return hop;
    });
  });
}
