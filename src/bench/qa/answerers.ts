import { longDate } from '../../compile/time-format.js';
import type { Conversation } from '../../domain/conversation.js';
import type { LlmClient } from '../../llm/index.js';
import { answerFromContext, buildQueryContext } from '../../query/ask.js';
import { ANSWER_PROMPT } from '../../query/answer-prompt.js';
import type { TimeFormatChoice } from '../../query/types.js';
import type { Usage } from '../../extract/types.js';
import { buildBm25 } from '../bm25.js';
import { turnChunks } from '../chunks.js';
import type { BenchWorld } from '../world.js';
import type { Tokenizer } from '../../ports/tokenizer.js';
import { naiveRagContexts } from '../context/naive-rag.js';

export interface Answered {
  text: string;
  usage: Usage;
  /** The context the model saw (kept for ablations and debugging). */
  context: string;
}

export type Answerer = (question: string, now: number) => Promise<Answered>;

/** PIE: the compiled temporal context of buildQueryContext, answered by answer-question@1. */
export function pieAnswerer(input: {
  world: BenchWorld;
  client: LlmClient;
  tz: string;
  format: TimeFormatChoice;
  /** The context's token budget (default: buildQueryContext's) and the tokenizer that counts it. */
  budget?: ContextTokens | undefined;
}): Answerer {
  return async (question, now) => {
    const context = await buildQueryContext({
      store: input.world.store,
      question,
      now,
      tz: input.tz,
      format: input.format,
      // Intent by rules, as in the retrieval benchmark: the model only answers.
      client: null,
      ...(input.budget ? { maxTokens: input.budget.tokens, tokenizer: input.budget.tokenizer } : {}),
    });
    const answer = await answerFromContext({ client: input.client, question, context, now, tz: input.tz });
    return { text: answer.text, usage: answer.usage, context: context.text };
  };
}

/** A context budget: the most tokens, and the tokenizer that counts them. */
export interface ContextTokens {
  tokens: number;
  tokenizer: Tokenizer;
}

/**
 * The paper's naive_rag baseline: the top `chunks` BM25 chunks of `chunkTurns` turns (each headed by its session's
 * date) — or, with a token budget, as many as fit it (bench/context/naive-rag.ts) — answered by the same
 * answer-question@1 prompt, so only the context differs.
 */
export function naiveRagAnswerer(input: {
  conversations: readonly Conversation[];
  client: LlmClient;
  tz: string;
  chunkTurns: number;
  chunks: number;
  budget?: ContextTokens | undefined;
}): Answerer {
  const dates = new Map(input.conversations.map((c) => [c.externalId, c.createdAt]));
  const index = buildBm25(turnChunks(input.conversations, input.chunkTurns), (c) => c.text);
  const { budget } = input;
  const fitted = budget ? naiveRagContexts({ ...input, tokenizer: budget.tokenizer }) : null;
  return async (question, now) => {
    const context =
      fitted && budget
        ? fitted(question, budget.tokens)
        : index
            .search(question, input.chunks)
            .map((h, i) => `[${i + 1}] ${longDate(dates.get(h.doc.session) ?? now, input.tz)}\n${h.doc.text}`)
            .join('\n\n');
    const result = await input.client.generateText({
      prompt: ANSWER_PROMPT,
      input: { question, context: context || '(nothing found)', now: longDate(now, input.tz) },
    });
    return { text: result.text.trim(), usage: result.usage, context };
  };
}
