import type { ContextSource } from '../compile/context.js';
import { recordRetrieval } from '../metabolism/tasks/stale-review.js';
import { longDate } from '../compile/time-format.js';
import type { LlmClient } from '../llm/index.js';
import type { Usage } from '../extract/types.js';
import type { Embedder } from '../ports/embedder.js';
import type { WorldStore } from '../ports/world-store.js';
import { ANSWER_PROMPT } from './answer-prompt.js';
import { planQuery } from './plan.js';
import { PRESETS, type RetrievalPreset } from './presets.js';
import type { PyramidSource } from './pyramid-source.js';
import { retrieve, summarizeLanes, type LaneSummary } from './retrieve.js';
import { buildSubgraph, DEFAULT_LIMITS, type SubgraphLimits } from './subgraph/index.js';
import { evidencePool, rankEvidence } from './evidence.js';
import { compileQueryContext, worldCitations } from './compile-query.js';
import type { Tokenizer } from '../ports/tokenizer.js';
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
  /** Tokens the compiled text may have (default DEFAULT_CONTEXT_TOKENS), counted with `tokenizer`. */
  maxTokens?: number;
  /** The project's tokenizer; without one, four characters count as a token. */
  tokenizer?: Tokenizer;
  onWarning?: (message: string) => void;
}

/** The default context budget: room for a chat model's answer beside it. */
export const DEFAULT_CONTEXT_TOKENS = 4000;
/** The smallest budget a context can be compiled for (the question, the time and a few lines). */
export const MIN_CONTEXT_TOKENS = 200;
/** The largest budget (the evidence pool holds about this much text). */
export const MAX_CONTEXT_TOKENS = 32_000;

export interface QueryContext {
  plan: QueryPlan;
  items: RankedItem[];
  lanes: LaneSummary[];
  subgraph: Subgraph;
  text: string;
  /** Tokens of `text` and the budget it was compiled for. */
  tokens: number;
  maxTokens: number;
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
    // The ranked evidence takes the excerpts' place in the compiled context (and in the subgraph returned): the
    // subgraph's own excerpts would be read and dropped.
    limits: { ...(input.limits ?? DEFAULT_LIMITS), excerpts: 0 },
  });
  const maxTokens = contextBudget(input.maxTokens);
  const assistantWanted = asksWhatAssistantSaid(question);
  const evidence = await rankEvidence({
    store,
    plan,
    items: retrieval.items,
    cited: worldCitations(subgraph),
    assistantWanted,
    pool: evidencePool(maxTokens),
    now,
  });
  const compiled = await compileQueryContext({
    store,
    plan,
    subgraph,
    evidence,
    periods,
    now,
    tz,
    maxTokens,
    tokenizer: input.tokenizer,
    assistantWanted,
  });
  if (input.recordAccess) {
    const entities = subgraph.entities.map((b) => b.entity);
    await recordRetrieval({ store, entities, now, onWarning: input.onWarning });
  }
  return { ...compiled, items: retrieval.items, lanes: summarizeLanes(retrieval.lanes), maxTokens };
}

/** A budget within bounds, or an actionable error. */
export function contextBudget(value: number | undefined): number {
  if (value === undefined) return DEFAULT_CONTEXT_TOKENS;
  if (!Number.isInteger(value) || value < MIN_CONTEXT_TOKENS || value > MAX_CONTEXT_TOKENS) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `A context budget of ${value} tokens is out of range; give a whole number from ${MIN_CONTEXT_TOKENS} to ${MAX_CONTEXT_TOKENS}.`,
    );
  }
  return value;
}

/**
 * The question asks what the assistant said before ("remind me…", "you recommended…", "our previous
 * conversation"): its turns are evidence as much as the user's and are shown whole.
 */
export function asksWhatAssistantSaid(question: string): boolean {
  return (
    /\b(remind me|previous (conversation|chat|discussion)|last time we|earlier (conversation|chat)|our (last|earlier|previous) (conversation|chat|discussion))\b/i.test(
      question,
    ) ||
    /\byou\s+(?:had\s+|have\s+)?(recommended|suggested|mentioned|said|told|gave|provided|listed|shared|wrote|explained|described|proposed|advised|named)\b/i.test(
      question,
    ) ||
    /\bdid\s+you\s+(recommend|suggest|mention|say|tell|give|provide|list|share|write|explain|describe|propose|advise|name)\b/i.test(
      question,
    )
  );
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
  /** The answer as it arrives (streamed when the model can; all at once otherwise). */
  onText?: (delta: string) => void;
}): Promise<Answer> {
  const result = await input.client.generateText({
    prompt: ANSWER_PROMPT,
    input: { question: input.question.trim(), context: input.context.text, now: longDate(input.now, input.tz) },
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.onText ? { onText: input.onText } : {}),
  });
  return { text: result.text.trim(), model: input.client.label, usage: result.usage, cached: result.cached };
}
