import { createHash } from 'node:crypto';
import type { Conversation } from '../../domain/conversation.js';
import type { Episode } from '../../domain/world.js';
import type { TurnRef } from '../../ports/personal-bench-store.js';
import type { WorldStore } from '../../ports/world-store.js';
import type { HistoryTurn } from './statements.js';

/**
 * The raw history the personal benchmark reads: every conversation (episode) and its turns, straight from the
 * store's episodes. Nothing of the world model (entities, changes, facts) is read here, so the questions and the
 * BM25 baseline do not depend on what extraction or a sleep cycle made of the turns.
 */
export interface History {
  episodes: Episode[];
  /** Every turn, by `turnKey`. */
  turns: Map<string, HistoryTurn & { role: 'user' | 'assistant' }>;
  /** The conversations as the BM25 baseline chunks them: turn ids are `turnKey`s, session ids episode ids. */
  conversations: Conversation[];
}

/** "episodeId#seq": how turns are named in rankings and evidence. */
export const turnKey = (ref: TurnRef): string => `${ref.episodeId}#${ref.seq}`;

/** Each turn once, in the order first named. */
export function uniqueRefs(refs: readonly TurnRef[]): TurnRef[] {
  return [...new Map(refs.map((r) => [turnKey(r), r])).values()];
}

/** A short, stable hash of a turn's text (a stored question notices when its evidence turn changed). */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export async function readHistory(input: {
  store: WorldStore;
  onProgress?: (done: number, total: number) => void;
}): Promise<History> {
  const { store } = input;
  const episodes = await store.episodes.list();
  const turns: History['turns'] = new Map();
  const conversations: Conversation[] = [];
  for (const [i, episode] of episodes.entries()) {
    const stored = await store.episodes.turns(episode.id);
    for (const t of stored) {
      turns.set(turnKey(t), {
        episodeId: episode.id,
        seq: t.seq,
        time: t.time ?? episode.createdAt,
        text: t.text,
        role: t.role,
      });
    }
    conversations.push({
      source: 'manual',
      externalId: episode.id,
      title: episode.title,
      createdAt: episode.createdAt,
      updatedAt: episode.updatedAt,
      model: episode.model,
      turns: stored.map((t) => ({
        role: t.role,
        text: t.text,
        time: t.time,
        externalId: turnKey(t),
        ...(t.speaker === null ? {} : { speaker: t.speaker }),
      })),
    });
    if ((i + 1) % 200 === 0 || i + 1 === episodes.length) input.onProgress?.(i + 1, episodes.length);
  }
  return { episodes, turns, conversations };
}

/** The user's turns, oldest first (what the templates and a model read). */
export function userTurns(history: History): HistoryTurn[] {
  return [...history.turns.values()]
    .filter((t) => t.role === 'user' && t.text.trim() !== '')
    .sort((a, b) => a.time - b.time || a.episodeId.localeCompare(b.episodeId) || a.seq - b.seq)
    .map(({ episodeId, seq, time, text }) => ({ episodeId, seq, time, text }));
}
