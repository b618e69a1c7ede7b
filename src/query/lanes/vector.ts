import type { EmbeddingOwner } from '../../ports/world-store.js';
import type { LaneHit, LaneResult } from '../types.js';
import { DEFAULT_IMPORTANCE, type LaneInput } from './types.js';

/** Below this cosine similarity a vector hit is noise (the flowcharts' 0.35). */
const MIN_SIMILARITY = 0.35;
const OWNERS: readonly EmbeddingOwner[] = ['entity', 'episode'];

/**
 * Nearest neighbours of the question among stored vectors of the configured embedder's model (entities and
 * episodes; vectors of another model are never compared). The store finds them (`embeddings.nearest`: an exact
 * scan, or pgvector's HNSW index on PostgreSQL); the best `limit` of both kinds are kept. Skipped without an
 * embedder or without vectors for its model.
 */
export async function vectorLane(input: LaneInput): Promise<LaneResult> {
  const { store, embedder, settings } = input;
  if (!embedder) return { lane: 'vector', hits: [], skipped: 'no embedder configured (set PIE_EMBEDDER)' };
  if (settings.limit === 0) return { lane: 'vector', hits: [], skipped: 'off for this intent' };
  const model = embedder.model;
  const counts = await Promise.all(OWNERS.map((ownerKind) => store.embeddings.count({ ownerKind, model })));
  if (counts.every((n) => n === 0)) {
    return { lane: 'vector', hits: [], skipped: `no vectors stored for ${model} yet` };
  }
  const [query] = await embedder.embed([input.plan.question]);
  if (!query) return { lane: 'vector', hits: [], skipped: 'the embedder returned no vector' };
  const found = await Promise.all(
    OWNERS.map(async (ownerKind) =>
      (await store.embeddings.nearest({ ownerKind, model, vector: query, limit: settings.limit })).map((hit) => ({
        ...hit,
        ownerKind,
      })),
    ),
  );
  const scored = found
    .flat()
    .filter((x) => x.score >= MIN_SIMILARITY)
    .sort((a, b) => b.score - a.score || (a.ownerId < b.ownerId ? -1 : 1))
    .slice(0, settings.limit);
  const entities = new Map(
    (await store.entities.getMany(scored.filter((x) => x.ownerKind === 'entity').map((x) => x.ownerId))).map((e) => [
      e.id,
      e,
    ]),
  );
  const episodes = new Map(
    (await store.episodes.getMany(scored.filter((x) => x.ownerKind === 'episode').map((x) => x.ownerId))).map((e) => [
      e.id,
      e,
    ]),
  );
  const hits: LaneHit[] = [];
  for (const s of scored) {
    const entity = s.ownerKind === 'entity' ? entities.get(s.ownerId) : undefined;
    const episode = s.ownerKind === 'episode' ? episodes.get(s.ownerId) : undefined;
    if (entity && entity.tier !== 'archived') {
      hits.push({ ref: { kind: 'entity', id: entity.id }, time: entity.lastSeen, importance: entity.importance });
    } else if (episode) {
      hits.push({
        ref: { kind: 'episode', id: episode.id },
        time: episode.createdAt,
        importance: episode.significance ?? DEFAULT_IMPORTANCE,
      });
    }
  }
  return { lane: 'vector', hits };
}
