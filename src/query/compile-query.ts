import { compileContext, type ContextSource } from '../compile/context.js';
import type { MemorySpan } from '../compile/time-note.js';
import type { Excerpt } from './types.js';
import type { Period } from '../domain/world.js';
import type { Tokenizer } from '../ports/tokenizer.js';
import type { WorldStore } from '../ports/world-store.js';
import type { Evidence } from './evidence.js';
import { questionKeywords } from './keywords.js';
import { pyramidSection, type PyramidSource } from './pyramid-source.js';
import type { QueryPlan, Subgraph } from './types.js';

/** Four characters a token: the count used when no tokenizer is given. */
const ESTIMATE: Tokenizer = { name: 'estimate', count: (text) => Math.ceil(text.length / 4) };

/** The conversations the world model's part of a context cites (its entities' changes and relationships, events). */
export function worldCitations(subgraph: Subgraph): string[] {
  const cited = new Set<string>();
  for (const b of subgraph.entities) {
    for (const t of b.transitions) if (t.episodeId) cited.add(t.episodeId);
    for (const r of b.relationships) if (r.relationship.episodeId) cited.add(r.relationship.episodeId);
  }
  for (const t of [...subgraph.events, ...subgraph.contradictions]) if (t.episodeId) cited.add(t.episodeId);
  return [...cited];
}

export interface CompiledQuery {
  plan: QueryPlan;
  subgraph: Subgraph;
  text: string;
  tokens: number;
  sources: ContextSource[];
  pyramid: PyramidSource[];
}

/**
 * The last step of a question: the subgraph and the ranked evidence compiled within `maxTokens` (src/compile), with
 * pyramid summaries after it when they take at most a third of the budget. The subgraph returned holds the turns the
 * text shows as its excerpts.
 */
export async function compileQueryContext(input: {
  store: WorldStore;
  plan: QueryPlan;
  subgraph: Subgraph;
  evidence: Evidence;
  periods: readonly Period[];
  now: number;
  tz: string;
  maxTokens: number;
  tokenizer?: Tokenizer | undefined;
  assistantWanted: boolean;
}): Promise<CompiledQuery> {
  const { store, plan, subgraph, evidence, maxTokens, tz } = input;
  // Independent of the reads below; on a server store they run side by side.
  const span = memorySpan(store);
  // Awaited below; should a read before then fail first, its failure is the one reported.
  span.catch(() => undefined);
  const tokenizer = input.tokenizer ?? ESTIMATE;
  const cited = new Set([...worldCitations(subgraph), ...evidence.turns.map((e) => e.episode.id)]);
  // The evidence has read most of them already (all, when it was given the world part's citations).
  const unread = [...cited].filter((id) => !evidence.episodes.has(id));
  const read = new Map((unread.length > 0 ? await store.episodes.getMany(unread) : []).map((e) => [e.id, e]));
  const episodes = new Map(
    [...cited].flatMap((id) => {
      const e = evidence.episodes.get(id) ?? read.get(id);
      return e ? [[id, { title: e.title, createdAt: e.createdAt }] as const] : [];
    }),
  );
  // About four characters a token: the section is rendered for the budget, then counted exactly.
  const pyramid = await pyramidSection({ store, entityIds: plan.entityIds, tz, maxChars: maxTokens });
  const pyramidTokens = pyramid ? tokenizer.count(pyramid.text) + 2 : 0;
  const keep = pyramid !== null && pyramidTokens <= maxTokens / 3 ? pyramid : null;
  const compiled = compileContext({
    plan,
    subgraph,
    time: { now: input.now, tz, format: plan.timeFormat, periods: input.periods },
    episodes,
    budget: { limit: maxTokens - (keep ? pyramidTokens : 0), tokenizer },
    evidence: {
      candidates: evidence.turns,
      turnsOf: (id) => evidence.conversations.get(id) ?? [],
      keywords: questionKeywords(
        plan.question,
        plan.timeRanges.map((r) => r.text),
      ),
      assistantWanted: input.assistantWanted,
    },
    ...(evidence.interval ? { interval: evidence.interval } : {}),
    memorySpan: await span,
  });
  const text = keep ? `${compiled.text}\n\n${keep.text}` : compiled.text;
  const excerpts: Excerpt[] = compiled.excerpts;
  return {
    plan,
    subgraph: { ...subgraph, excerpts },
    text,
    tokens: keep ? tokenizer.count(text) : compiled.tokens,
    sources: compiled.sources,
    pyramid: keep ? keep.sources : [],
  };
}

/** The memory's first and latest conversation, or null when it has none (two indexed reads). */
async function memorySpan(store: WorldStore): Promise<MemorySpan | null> {
  const [[first], [last]] = await Promise.all([
    store.episodes.list({ order: 'asc', limit: 1 }),
    store.episodes.list({ order: 'desc', limit: 1 }),
  ]);
  return first && last ? { first: first.createdAt, last: last.createdAt } : null;
}
