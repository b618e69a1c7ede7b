import type { Tokenizer } from '../../ports/tokenizer.js';
import type { PersonalQuestion } from '../../ports/personal-bench-store.js';
import type { QueryContext } from '../../query/ask.js';
import { tokenize, buildBm25 } from '../bm25.js';
import { turnChunks, unique } from '../chunks.js';
import { recallAt } from '../metrics.js';
import { pieRankings, type RankedWorld } from '../pie-ranking.js';
import { textHash, turnKey, type History } from './history.js';

/**
 * Retrieval scores of one question (docs/evaluation.md "Personal benchmark"), for PIE and the BM25 baseline:
 * - `recall@k`: the share of the evidence turns among the first k turns a system shows;
 * - `in_context`: the share shown anywhere in a context of the same token budget (PIE: the compiled context `pie ask
 *   --context-only` prints; BM25: its best chunks while they fit the budget);
 * - abstention questions: `clear@k` and `clear_context` are 1 when no near miss is shown (see `nearMisses`).
 * PIE's turns, best first: those its fused items stand for (the `pie bench locomo` mapping, pie-ranking.ts) that the
 * context shows, then the other turns the context shows, in the order it writes them.
 */

export type Metrics = Record<string, number>;

/** The turns a system shows for a question: ranked, and all of those in a context of the budget. */
export interface Shown {
  ranked: string[];
  inContext: ReadonlySet<string>;
}

export function pieWorld(history: History, store: RankedWorld['store']): RankedWorld {
  const turnIdOf = new Map([...history.turns.keys()].map((k) => [k, k]));
  const sessionOf = new Map(history.episodes.map((e) => [e.id, e.id]));
  return { store, turnIdOf, sessionOf };
}

export async function pieShown(input: { world: RankedWorld; context: QueryContext }): Promise<Shown> {
  const shown = input.context.subgraph.excerpts.flatMap((ex) =>
    ex.lines.map((l) => turnKey({ episodeId: ex.episode.id, seq: l.seq })),
  );
  const inContext = new Set(shown);
  const { all } = await pieRankings(input);
  return { ranked: unique([...all.turns.filter((t) => inContext.has(t)), ...shown]), inContext };
}

/** The BM25 baseline over chunks of `chunkTurns` turns, and the chunks that fit `budget` tokens, best first. */
export function bm25Shown(input: {
  history: History;
  chunkTurns: number;
  budget: number;
  tokenizer: Tokenizer;
}): (question: string) => Shown {
  const chunks = turnChunks(input.history.conversations, input.chunkTurns);
  const index = buildBm25(chunks, (c) => c.text);
  const tokens = new Map<string, number>();
  return (question) => {
    const hits = index.search(question, 1000);
    const inContext = new Set<string>();
    let used = 0;
    for (const { doc } of hits) {
      const key = doc.turnIds[0] ?? '';
      const cost = tokens.get(key) ?? input.tokenizer.count(doc.text);
      tokens.set(key, cost);
      if (used + cost > input.budget) break;
      used += cost;
      for (const t of doc.turnIds) inContext.add(t);
    }
    return { ranked: unique(hits.flatMap((h) => h.doc.turnIds)), inContext };
  };
}

export function answerableMetrics(shown: Shown, gold: readonly string[], ks: readonly number[]): Metrics {
  const out: Metrics = {};
  for (const k of ks) out[`recall@${k}`] = recallAt(shown.ranked, gold, k);
  out.in_context = gold.length === 0 ? 0 : gold.filter((g) => shown.inContext.has(g)).length / gold.length;
  return out;
}

export function abstentionMetrics(shown: Shown, misses: ReadonlySet<string>, ks: readonly number[]): Metrics {
  const out: Metrics = {};
  for (const k of ks) out[`clear@${k}`] = shown.ranked.slice(0, k).some((t) => misses.has(t)) ? 0 : 1;
  out.clear_context = [...shown.inContext].some((t) => misses.has(t)) ? 0 : 1;
  return out;
}

/**
 * The near misses of an abstention question: the evidence turns of the set's answerable questions that share the
 * most words with it (BM25's words; at least one). "When did I move to Lisbon?" has the turn of "When did I move to
 * San Francisco?": a turn a model could wrongly answer from. None when no answerable question shares a word.
 */
export function nearMisses(question: PersonalQuestion, set: readonly PersonalQuestion[]): Set<string> {
  const words = new Set(tokenize(question.question));
  let best = 0;
  let misses: string[] = [];
  for (const other of set) {
    if (other.kind === 'abstention') continue;
    const shared = new Set(tokenize(other.question).filter((w) => words.has(w))).size;
    if (shared === 0 || shared < best) continue;
    const turns = other.evidence.map(turnKey);
    misses = shared > best ? turns : [...misses, ...turns];
    best = shared;
  }
  return new Set(misses);
}

/** Why a question cannot be scored on this history: an evidence turn that is gone or whose text changed. */
export function staleReason(question: PersonalQuestion, history: History): string | null {
  for (const e of question.evidence) {
    const turn = history.turns.get(turnKey(e));
    if (!turn) return 'an evidence turn is gone';
    if (textHash(turn.text) !== e.textHash) return 'an evidence turn changed';
  }
  return null;
}
