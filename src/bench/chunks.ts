import type { Conversation } from '../domain/conversation.js';
import { buildBm25 } from './bm25.js';

/** A fixed-size window of consecutive turns of one session: the naive baseline's unit of retrieval. */
export interface Chunk {
  session: string;
  /** The turns' ids in order (LoCoMo dia_ids; "session#seq" where a turn has none). */
  turnIds: string[];
  text: string;
}

/** Splits every conversation into non-overlapping chunks of `size` turns (the last one of a session may be shorter). */
export function turnChunks(conversations: readonly Conversation[], size: number): Chunk[] {
  const out: Chunk[] = [];
  for (const c of conversations) {
    for (let i = 0; i < c.turns.length; i += size) {
      const turns = c.turns.slice(i, i + size);
      out.push({
        session: c.externalId,
        turnIds: turns.map((t, j) => t.externalId ?? `${c.externalId}#${i + j}`),
        text: turns.map((t) => `${t.speaker ?? t.role}: ${t.text}`).join('\n'),
      });
    }
  }
  return out;
}

export interface Ranking {
  /** Turn ids, best first, deduplicated. */
  turns: string[];
  /** Session ids, best first, deduplicated. */
  sessions: string[];
}

/** The naive baseline: BM25 over the chunks; a chunk's turns and session enter the rankings in chunk order. */
export function createBaseline(conversations: readonly Conversation[], chunkTurns: number): (q: string) => Ranking {
  const index = buildBm25(turnChunks(conversations, chunkTurns), (c) => c.text);
  return (question) => {
    const hits = index.search(question, 200);
    return {
      turns: unique(hits.flatMap((h) => h.doc.turnIds)),
      sessions: unique(hits.map((h) => h.doc.session)),
    };
  };
}

export function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}
