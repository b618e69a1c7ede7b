import type { Entity } from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';

/** Where an entity was named: the sentences with its name, and the first conversation and turn that names it. */
export interface EntityContext {
  mentioned: boolean;
  sentences: string[];
  source: { episodeId: string; title: string; excerpt: string | null } | null;
}

const MAX_SENTENCES = 12;

/** Reads entities' contexts, each conversation's turns once. */
export function entityContext(store: WorldStore): { of(entity: Entity): Promise<EntityContext> } {
  const turnCache = new Map<string, readonly { text: string }[]>();
  const titles = new Map<string, string>();
  const turns = async (id: string) => {
    const cached = turnCache.get(id);
    if (cached) return cached;
    const loaded = await store.episodes.turns(id);
    turnCache.set(id, loaded);
    return loaded;
  };
  return {
    async of(entity) {
      const forms = [entity.name, ...entity.aliases].map((f) => f.toLowerCase()).filter((f) => f.length > 0);
      const mentions = await store.mentions.forEntity(entity.id);
      const sentences: string[] = [];
      let source: EntityContext['source'] = null;
      for (const m of mentions) {
        for (const t of await turns(m.episodeId)) {
          for (const s of t.text.split(/(?<=[.!?])\s+/)) {
            if (!forms.some((f) => s.toLowerCase().includes(f))) continue;
            if (source === null) {
              let title = titles.get(m.episodeId);
              if (title === undefined) {
                title = (await store.episodes.get(m.episodeId))?.title ?? m.episodeId;
                titles.set(m.episodeId, title);
              }
              source = { episodeId: m.episodeId, title, excerpt: s.length > 160 ? `${s.slice(0, 157)}…` : s };
            }
            sentences.push(s);
            if (sentences.length >= MAX_SENTENCES) return { mentioned: true, sentences, source };
          }
        }
      }
      if (source === null && mentions[0]) {
        const first = mentions[0];
        source = {
          episodeId: first.episodeId,
          title: (await store.episodes.get(first.episodeId))?.title ?? first.episodeId,
          excerpt: null,
        };
      }
      return { mentioned: mentions.length > 0, sentences, source };
    },
  };
}
