import type { WorldStore } from '../../ports/world-store.js';
import type { Excerpt, RankedItem } from '../types.js';

const LINE_CHARS = 600;

/**
 * Conversation evidence for the fused items that are turns or episodes: the best-ranked matching turns in full
 * (clipped, in conversation order), or for an episode hit without a matching turn its summary, else its first user
 * turn. At most `maxEpisodes` episodes and `maxLines` lines each, in the fused order.
 */
export async function loadExcerpts(input: {
  store: WorldStore;
  items: readonly RankedItem[];
  maxEpisodes: number;
  maxLines: number;
}): Promise<Excerpt[]> {
  const { store } = input;
  if (input.maxEpisodes <= 0) return [];
  const wanted = new Map<string, Set<number>>();
  for (const item of input.items) {
    const id = item.ref.kind === 'turn' ? item.ref.episodeId : item.ref.kind === 'episode' ? item.ref.id : null;
    if (id === null) continue;
    if (!wanted.has(id)) {
      if (wanted.size >= input.maxEpisodes) continue;
      wanted.set(id, new Set());
    }
    if (item.ref.kind === 'turn') wanted.get(id)?.add(item.ref.seq);
  }
  // Read side by side; a wanted episode that no longer exists has no turns either.
  const [episodes, turnsOf] = await Promise.all([
    store.episodes.getMany([...wanted.keys()]),
    store.episodes.turnsOfMany([...wanted.keys()]),
  ]);
  const out: Excerpt[] = [];
  for (const episode of episodes) {
    const seqs = wanted.get(episode.id) ?? new Set<number>();
    const turns = turnsOf.get(episode.id) ?? [];
    // The best-ranked matching turns (a Set keeps the fused order), shown in conversation order.
    const best = new Set([...seqs].slice(0, input.maxLines));
    let picked = turns.filter((t) => best.has(t.seq));
    if (picked.length === 0 && !episode.summary) picked = turns.filter((t) => t.role === 'user').slice(0, 1);
    out.push({
      episode,
      lines: picked.map((t) => ({ role: t.role, speaker: t.speaker, text: clip(t.text), seq: t.seq, time: t.time })),
    });
  }
  return out;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= LINE_CHARS ? flat : `${flat.slice(0, LINE_CHARS - 1)}…`;
}
