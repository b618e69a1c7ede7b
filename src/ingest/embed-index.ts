import { stateText } from '../compile/timeline.js';
import type { Entity, Episode } from '../domain/world.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { EmbeddingOwner, WorldStore } from '../ports/world-store.js';

const BATCH = 64;
const EPISODE_TEXT_CHARS = 2000;

export interface EmbedIndexSummary {
  entities: number;
  episodes: number;
}

/**
 * Gives every entity and episode a vector of the embedder's model, for the vector retrieval lane. Only owners
 * without one are embedded, in batches, each batch stored as it arrives, so an interrupted run resumes where it
 * stopped. Vectors are tagged with the model; another model's vectors are left alone (see `pie reindex`).
 */
export async function indexEmbeddings(input: {
  store: WorldStore;
  embedder: Embedder;
  clock: Clock;
  signal?: AbortSignal;
  onProgress?: (done: number, kind: EmbeddingOwner) => void;
}): Promise<EmbedIndexSummary> {
  const summary: EmbedIndexSummary = { entities: 0, episodes: 0 };
  for (const kind of ['entity', 'episode'] as const) {
    for (;;) {
      if (input.signal?.aborted) return summary;
      const ids = await input.store.embeddings.missing({ ownerKind: kind, model: input.embedder.model, limit: BATCH });
      if (ids.length === 0) break;
      const texts = kind === 'entity' ? await entityTexts(input.store, ids) : await episodeTexts(input.store, ids);
      const vectors = await input.embedder.embed(texts.map((t) => t.text));
      await input.store.transaction(async (tx) => {
        for (const [i, t] of texts.entries()) {
          const vector = vectors[i];
          if (!vector) continue;
          await tx.embeddings.put({
            ownerKind: kind,
            ownerId: t.id,
            model: input.embedder.model,
            vector: Float32Array.from(vector),
            createdAt: input.clock.now(),
          });
        }
      });
      if (kind === 'entity') summary.entities += texts.length;
      else summary.episodes += texts.length;
      input.onProgress?.(kind === 'entity' ? summary.entities : summary.episodes, kind);
      if (vectors.length < texts.length) break;
    }
  }
  return summary;
}

export function entityText(e: Entity): string {
  const aliases = e.aliases.length > 0 ? `, also ${e.aliases.join(', ')}` : '';
  const state = stateText(e.state);
  return `${e.name} (${e.type}${aliases})${state ? `: ${state}` : ''}`;
}

async function entityTexts(store: WorldStore, ids: string[]): Promise<{ id: string; text: string }[]> {
  return (await store.entities.getMany(ids)).map((e) => ({ id: e.id, text: entityText(e) }));
}

async function episodeTexts(store: WorldStore, ids: string[]): Promise<{ id: string; text: string }[]> {
  const out: { id: string; text: string }[] = [];
  for (const e of await store.episodes.getMany(ids)) out.push({ id: e.id, text: await episodeText(store, e) });
  return out;
}

/** Title and summary; without a summary, the title and the start of what the user said. */
async function episodeText(store: WorldStore, e: Episode): Promise<string> {
  if (e.summary) return `${e.title}. ${e.summary}`.slice(0, EPISODE_TEXT_CHARS);
  const said = (await store.episodes.turns(e.id))
    .filter((t) => t.role === 'user')
    .map((t) => t.text)
    .join(' ');
  return `${e.title}. ${said}`.slice(0, EPISODE_TEXT_CHARS);
}
