import type { Episode, StoredTurn } from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';
import { keywordText } from './keywords.js';
import { rankTurnsInContext } from './lanes/turn-context.js';
import type { QueryPlan, RankedItem } from './types.js';

/**
 * Evidence turns for the compiled context (docs/query.md "Evidence"): the raw turns that may hold the answer, best
 * first, deep enough to fill any token budget. The fused retrieval's own turn hits lead (its lanes agree on them);
 * then every turn the question's words match, ranked in its conversation (a turn gains a share of its neighbours'
 * scores, so the reply to a matching question enters too); then the turns of conversations the fused items point
 * to through an episode or a change but no matching turn. Inside a time range the question names, turns of that
 * range come first when it has enough of them.
 */
export interface EvidenceTurn {
  episode: Episode;
  turn: StoredTurn;
  /** Position in the ranking, 0 = best. */
  rank: number;
}

/** Matching turns fetched from the full-text index per question: enough for an 8k-token context. */
export const EVIDENCE_POOL = 400;

export async function rankEvidence(input: {
  store: WorldStore;
  plan: QueryPlan;
  items: readonly RankedItem[];
  pool?: number;
}): Promise<EvidenceTurn[]> {
  const { store, plan, items } = input;
  const order: { episodeId: string; seq: number }[] = [];
  const seen = new Set<string>();
  const push = (episodeId: string, seq: number): void => {
    const key = `${episodeId}#${seq}`;
    if (seen.has(key)) return;
    seen.add(key);
    order.push({ episodeId, seq });
  };
  for (const item of items) if (item.ref.kind === 'turn') push(item.ref.episodeId, item.ref.seq);

  const text = keywordText(
    plan.question,
    plan.timeRanges.map((r) => r.text),
  );
  if (text !== null) {
    const hits = await store.search.turns({ text, limit: input.pool ?? EVIDENCE_POOL, mode: 'fill' });
    const counts = new Map(
      (await store.episodes.getMany([...new Set(hits.map((h) => h.episodeId))])).map((e) => [e.id, e.turnCount]),
    );
    const ranked = rankTurnsInContext({
      matched: hits.map((h) => ({
        episodeId: h.episodeId,
        seq: h.seq,
        score: -h.score,
        time: h.time ?? h.episodeTime,
      })),
      turnCount: (id) => counts.get(id),
    });
    for (const t of ranked) push(t.episodeId, t.seq);
  }
  // Conversations the fused items name without a matching turn: their turns in order, after the matches.
  const pointed = await pointedEpisodes(store, items);
  const episodeIds = [...new Set([...order.map((o) => o.episodeId), ...pointed])];
  const episodes = new Map((await store.episodes.getMany(episodeIds)).map((e) => [e.id, e]));
  const turns = new Map<string, StoredTurn[]>();
  for (const id of episodeIds) turns.set(id, await store.episodes.turns(id));
  for (const id of pointed) for (const t of turns.get(id) ?? []) push(id, t.seq);

  const out: EvidenceTurn[] = [];
  for (const o of order) {
    const episode = episodes.get(o.episodeId);
    const turn = turns.get(o.episodeId)?.[o.seq];
    if (episode && turn && turn.seq === o.seq) out.push({ episode, turn, rank: out.length });
  }
  return preferRange(out, plan);
}

/** Episodes a fused episode or transition item points to, in fused order. */
async function pointedEpisodes(store: WorldStore, items: readonly RankedItem[]): Promise<string[]> {
  const transitionIds = items.flatMap((i) => (i.ref.kind === 'transition' ? [i.ref.id] : []));
  const episodeOf = new Map((await store.transitions.getMany(transitionIds)).map((t) => [t.id, t.episodeId]));
  const out: string[] = [];
  for (const item of items) {
    const id =
      item.ref.kind === 'episode' ? item.ref.id : item.ref.kind === 'transition' ? episodeOf.get(item.ref.id) : null;
    if (id && !out.includes(id)) out.push(id);
  }
  return out;
}

/** A time the turn happened: its own, else its conversation's. */
export function turnTime(e: EvidenceTurn): number {
  return e.turn.time ?? e.episode.createdAt;
}

/**
 * Turns inside the question's time span first (stable), when the span holds at least three of them; otherwise the
 * ranking stays as it is, so a vague or wrong time reading cannot hide the evidence.
 */
function preferRange(turns: EvidenceTurn[], plan: QueryPlan): EvidenceTurn[] {
  if (plan.timeRanges.length === 0) return turns;
  const start = Math.min(...plan.timeRanges.map((r) => r.start));
  const end = Math.max(...plan.timeRanges.map((r) => r.end));
  const inside = turns.filter((t) => turnTime(t) >= start && turnTime(t) < end);
  if (inside.length < 3) return turns;
  const rest = turns.filter((t) => !inside.includes(t));
  return [...inside, ...rest].map((t, rank) => ({ ...t, rank }));
}
