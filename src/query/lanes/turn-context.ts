/**
 * Ranking turns in their conversation. A turn is rarely understood alone: the question is asked in one turn and
 * answered in the next, so the words a question searches for are often split over neighbouring turns. Each
 * turn's BM25 score is raised by a share of its neighbours' scores (the turns just before and after it in the same
 * conversation), and a neighbour that matched no word itself becomes a candidate with that share alone (the reply
 * to a matching turn, or what it replies to). Pure.
 */

/** How much of each neighbour's score a turn gains. */
export const NEIGHBOUR_SHARE = 0.35;

export interface MatchedTurn {
  episodeId: string;
  seq: number;
  /** BM25 score, higher is better. */
  score: number;
  time: number | null;
  snippet?: string;
}

export interface TurnInContext {
  episodeId: string;
  seq: number;
  /** The turn's own score plus the share of its neighbours' scores. */
  score: number;
  time: number | null;
  /** Absent for a neighbour that matched no word. */
  snippet?: string;
}

/**
 * The matched turns and their unmatched neighbours, best first by score in context; ties keep the matched order
 * (matched turns before the neighbours they brought in). `turnCount` bounds each conversation's sequence numbers
 * (0 … count − 1); a conversation it does not know gets no unmatched neighbours.
 */
export function rankTurnsInContext(input: {
  matched: readonly MatchedTurn[];
  turnCount: (episodeId: string) => number | undefined;
  share?: number;
}): TurnInContext[] {
  const share = input.share ?? NEIGHBOUR_SHARE;
  const key = (episodeId: string, seq: number): string => `${episodeId}#${seq}`;
  const own = new Map<string, MatchedTurn>();
  for (const t of input.matched) if (!own.has(key(t.episodeId, t.seq))) own.set(key(t.episodeId, t.seq), t);
  const candidates: MatchedTurn[] = [...own.values()];
  const added = new Set<string>();
  for (const t of own.values()) {
    const count = input.turnCount(t.episodeId);
    if (count === undefined) continue;
    for (const seq of [t.seq - 1, t.seq + 1]) {
      const k = key(t.episodeId, seq);
      if (seq < 0 || seq >= count || own.has(k) || added.has(k)) continue;
      added.add(k);
      candidates.push({ episodeId: t.episodeId, seq, score: 0, time: t.time });
    }
  }
  const scoreOf = (episodeId: string, seq: number): number => own.get(key(episodeId, seq))?.score ?? 0;
  return candidates
    .map((t, order) => ({
      order,
      turn: {
        episodeId: t.episodeId,
        seq: t.seq,
        score: t.score + share * (scoreOf(t.episodeId, t.seq - 1) + scoreOf(t.episodeId, t.seq + 1)),
        time: t.time,
        ...(t.snippet === undefined ? {} : { snippet: t.snippet }),
      },
    }))
    .sort((a, b) => b.turn.score - a.turn.score || a.order - b.order)
    .map((x) => x.turn);
}

/**
 * At most `perConversation` turns of one conversation before any conversation's next ones (the context shows a few
 * lines per conversation, so a long matching conversation should not fill the list alone); the order is otherwise
 * kept. Pure.
 */
export function spreadOver<T extends { episodeId: string }>(turns: readonly T[], perConversation: number): T[] {
  const seen = new Map<string, number>();
  const first: T[] = [];
  const later: T[] = [];
  for (const t of turns) {
    const n = (seen.get(t.episodeId) ?? 0) + 1;
    seen.set(t.episodeId, n);
    (n <= perConversation ? first : later).push(t);
  }
  return [...first, ...later];
}
