import type { WorldStore } from '../../ports/world-store.js';
import { keywordText } from '../keywords.js';
import type { LaneHit, LaneResult } from '../types.js';
import { interleave } from './temporal.js';
import { rankTurnsInContext, spreadOver } from './turn-context.js';
import { DEFAULT_IMPORTANCE, type LaneInput } from './types.js';

/**
 * BM25 gives a word found in at least half of an index's rows no weight (SQLite clamps its IDF at 1e-6), so an
 * entity, change or conversation title that only such words matched says nothing about the question (every LoCoMo
 * episode title names both speakers): such hits are dropped rather than ranked among real matches. Turns are kept
 * (they are the evidence itself, and in a history of one conversation every word of it is that common).
 */
export const MIN_BM25 = 1e-4;

function informative<T extends { score: number }>(hits: readonly T[]): T[] {
  // SQLite's BM25 is lower-is-better (negative).
  return hits.filter((h) => -h.score >= MIN_BM25);
}

/**
 * Turns of one conversation the list takes before the next conversation's: the context shows three lines per
 * conversation, and a long conversation full of the question's words would otherwise crowd out every other one.
 */
const TURNS_PER_CONVERSATION = 4;

/** Turns per round of the lane's list before each abstraction's next hit. */
const TURNS_PER_ROUND = 3;

/** Matched turns fetched per turn the lane returns: the pool the neighbour re-ranking chooses from. */
const TURN_POOL = 3;

/**
 * BM25 (SQLite FTS5) over the question's keywords, in four indexes: entity names, aliases and states; transition
 * summaries; episode titles and summaries; turn text. Turns rank in their conversation (turn-context.ts: a turn
 * gains a share of its neighbours' scores, and the unmatched reply to a matching turn can enter). BM25 scores of
 * different indexes are not comparable, so the four ranked lists are interleaved and left to reciprocal-rank fusion.
 */
export async function lexicalLane(input: LaneInput): Promise<LaneResult> {
  const { store, settings, plan } = input;
  const text = keywordText(
    plan.question,
    plan.timeRanges.map((r) => r.text),
  );
  if (text === null) return { lane: 'lexical', hits: [], skipped: 'the question has no searchable word' };
  if (settings.limit === 0) return { lane: 'lexical', hits: [], skipped: 'off for this intent' };
  const limit = settings.limit;
  const [entityHits, transitionHits, episodeHits, turnHits] = await Promise.all([
    store.search.entities({ text, limit }).then(informative),
    store.search.transitions({ text, limit }).then(informative),
    store.search.episodes({ text, limit }).then(informative),
    // Turns are the raw evidence: fill the list tier by tier rather than stopping at the few that have every word,
    // and take a wider pool, re-ranked below with each turn's neighbours.
    store.search.turns({ text, limit: limit * TURN_POOL, mode: 'fill' }),
  ]);
  const [entities, transitions, episodes] = await Promise.all([
    store.entities.getMany(entityHits.map((h) => h.entityId)),
    store.transitions.getMany(transitionHits.map((h) => h.transitionId)),
    store.episodes.getMany([...new Set([...episodeHits, ...turnHits].map((h) => h.episodeId))]),
  ]);
  const importanceOf = await entityImportance(
    store,
    transitions.map((t) => t.entityId),
    entities,
  );
  const significance = new Map(episodes.map((e) => [e.id, e.significance ?? DEFAULT_IMPORTANCE]));
  const turnCount = new Map(episodes.map((e) => [e.id, e.turnCount]));
  const ranked = rankTurnsInContext({
    matched: turnHits.map((h) => ({
      episodeId: h.episodeId,
      seq: h.seq,
      // SQLite's BM25 is lower-is-better.
      score: -h.score,
      time: h.time ?? h.episodeTime,
      snippet: h.snippet,
    })),
    turnCount: (id) => turnCount.get(id),
  });
  const turns = spreadOver(ranked, TURNS_PER_CONVERSATION).slice(0, limit);
  const entityById = new Map(entities.map((e) => [e.id, e]));
  const transitionById = new Map(transitions.map((t) => [t.id, t]));
  const lists: LaneHit[][] = [
    // A turn ranks by its words alone: its conversation's significance already counts for the episode item, and
    // letting it re-rank turns cost about 40 points of session recall@5 on two LoCoMo conversations.
    turns.map((t) => ({
      ref: { kind: 'turn', episodeId: t.episodeId, seq: t.seq },
      time: t.time,
      importance: DEFAULT_IMPORTANCE,
      ...(t.snippet === undefined ? {} : { snippet: t.snippet }),
    })),
    entityHits.flatMap((h) => {
      const e = entityById.get(h.entityId);
      return e
        ? [{ ref: { kind: 'entity', id: e.id }, time: e.lastSeen, importance: e.importance, snippet: h.snippet }]
        : [];
    }),
    transitionHits.flatMap((h) => {
      const t = transitionById.get(h.transitionId);
      if (!t) return [];
      const importance = (importanceOf.get(t.entityId) ?? DEFAULT_IMPORTANCE) * t.confidence;
      return [{ ref: { kind: 'transition', id: t.id }, time: t.eventTime, importance, snippet: h.snippet }];
    }),
    episodeHits.map((h) => ({
      ref: { kind: 'episode', id: h.episodeId },
      time: h.time,
      importance: significance.get(h.episodeId) ?? DEFAULT_IMPORTANCE,
      snippet: h.snippet,
    })),
  ];
  // Turns lead: the answer is written in them. Each round takes TURNS_PER_ROUND turns, then one of each
  // abstraction, so an entity or change that shares a word or two with the question does not take second place.
  const [turnList = [], ...others] = lists;
  const rounds = Array.from({ length: TURNS_PER_ROUND }, (_, j) =>
    turnList.filter((_, i) => i % TURNS_PER_ROUND === j),
  );
  return { lane: 'lexical', hits: interleave([...rounds, ...others]).slice(0, limit * 2) };
}

async function entityImportance(
  store: WorldStore,
  ids: string[],
  known: readonly { id: string; importance: number }[],
): Promise<Map<string, number>> {
  const map = new Map(known.map((e) => [e.id, e.importance]));
  const missing = [...new Set(ids)].filter((id) => !map.has(id));
  for (const e of await store.entities.getMany(missing)) map.set(e.id, e.importance);
  return map;
}
