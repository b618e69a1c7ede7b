import { compileContext, type ContextSource } from '../compile/context.js';
import { recordRetrieval } from '../metabolism/tasks/stale-review.js';
import { longDate } from '../compile/time-format.js';
import type { LlmClient } from '../llm/index.js';
import type { Usage } from '../extract/types.js';
import type { Embedder } from '../ports/embedder.js';
import type { WorldStore } from '../ports/world-store.js';
import { ANSWER_PROMPT } from './answer-prompt.js';
import { planQuery } from './plan.js';
import { PRESETS, type RetrievalPreset } from './presets.js';
import { pyramidSection, type PyramidSource } from './pyramid-source.js';
import { retrieve, summarizeLanes, type LaneSummary } from './retrieve.js';
import { buildSubgraph, type SubgraphLimits } from './subgraph/index.js';
import type { QueryPlan, RankedItem, Subgraph, TimeFormatChoice } from './types.js';
import { PieError } from '../domain/errors.js';

export const MAX_QUESTION_CHARS = 2000;

export interface ContextRequest {
  store: WorldStore;
  question: string;
  now: number;
  tz: string;
  format: TimeFormatChoice;
  /** Classifies the question when given (rules otherwise). */
  client?: LlmClient | null | undefined;
  embedder?: Embedder | undefined;
  /** Count the retrieved entities as accessed (importance uses access counts). Needs a writable store. */
  recordAccess?: boolean;
  /** Overrides the intent's preset (benchmarks, ablations). */
  preset?: RetrievalPreset;
  limits?: SubgraphLimits;
  onWarning?: (message: string) => void;
}

export interface QueryContext {
  plan: QueryPlan;
  items: RankedItem[];
  lanes: LaneSummary[];
  subgraph: Subgraph;
  text: string;
  sources: ContextSource[];
  /** Pyramid memory summaries the text cites as [P<n>] (empty when there are none). */
  pyramid: PyramidSource[];
}

/** Question → plan → hybrid retrieval → the intent's subgraph → compiled temporal context with sources. */
export async function buildQueryContext(input: ContextRequest): Promise<QueryContext> {
  const question = input.question.trim();
  if (question === '') throw new PieError('INVALID_ARGUMENT', 'The question is empty; ask something in words.');
  if (question.length > MAX_QUESTION_CHARS) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `The question is ${question.length} characters long; keep it under ${MAX_QUESTION_CHARS} (ask one thing at a time).`,
    );
  }
  const { store, now, tz } = input;
  const periods = await store.periods.list();
  const plan = await planQuery({
    store,
    question,
    now,
    tz,
    periods,
    format: input.format,
    client: input.client,
    ...(input.onWarning ? { onWarning: input.onWarning } : {}),
  });
  const preset = input.preset ?? PRESETS[plan.intent];
  const retrieval = await retrieve({ store, plan, preset, now, embedder: input.embedder });
  const subgraph = await buildSubgraph({
    store,
    plan,
    items: retrieval.items,
    ...(input.limits ? { limits: input.limits } : {}),
  });
  const cited = new Set<string>();
  for (const b of subgraph.entities) {
    for (const t of b.transitions) if (t.episodeId) cited.add(t.episodeId);
    for (const r of b.relationships) if (r.relationship.episodeId) cited.add(r.relationship.episodeId);
  }
  for (const t of [...subgraph.events, ...subgraph.contradictions]) if (t.episodeId) cited.add(t.episodeId);
  for (const ex of subgraph.excerpts) cited.add(ex.episode.id);
  const episodes = new Map(
    (await store.episodes.getMany([...cited])).map((e) => [e.id, { title: e.title, createdAt: e.createdAt }]),
  );
  const compiled = compileContext({ plan, subgraph, time: { now, tz, format: plan.timeFormat, periods }, episodes });
  const pyramid = await pyramidSection({ store, entityIds: plan.entityIds, tz });
  if (input.recordAccess) await recordRetrieval({ store, entities: subgraph.entities.map((b) => b.entity), now });
  return {
    plan,
    items: retrieval.items,
    lanes: summarizeLanes(retrieval.lanes),
    subgraph,
    text: pyramid ? `${compiled.text}\n\n${pyramid.text}` : compiled.text,
    sources: compiled.sources,
    pyramid: pyramid?.sources ?? [],
  };
}

export interface Answer {
  text: string;
  model: string;
  usage: Usage;
  cached: boolean;
}

/** The model's answer from the compiled context. */
export async function answerFromContext(input: {
  client: LlmClient;
  question: string;
  context: QueryContext;
  now: number;
  tz: string;
  signal?: AbortSignal;
}): Promise<Answer> {
  const result = await input.client.generateText({
    prompt: ANSWER_PROMPT,
    input: { question: input.question.trim(), context: input.context.text, now: longDate(input.now, input.tz) },
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return { text: result.text.trim(), model: input.client.label, usage: result.usage, cached: result.cached };
}
