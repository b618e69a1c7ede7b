import type { Usage } from '../extract/types.js';
import type { FinishReason, ModelRef } from '../ports/llm.js';
import type { PromptModule, TextPromptModule } from './prompt.js';

/** One answered model request, real or from the cache: the unit of per-batch and per-run accounting. */
export interface LlmCallEvent {
  /** `name@version` of the prompt module. */
  prompt: string;
  /** `provider:model`. */
  model: string;
  /** `cached`: answered from the response cache (no model call, no cost). */
  outcome: 'valid' | 'invalid' | 'cached';
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** False when the price table has no entry for the model (`costUsd` is then 0). */
  costKnown: boolean;
  finishReason?: FinishReason;
}

/** A failed attempt that will be retried after `delayMs`: for progress messages ("rate limited, waiting 20 s"). */
export interface LlmRetryEvent {
  prompt: string;
  model: string;
  attempt: number;
  delayMs: number;
  error: unknown;
}

export interface LlmResult<O> {
  object: O;
  usage: Usage;
  cached: boolean;
}

export interface LlmTextResult {
  text: string;
  usage: Usage;
  cached: boolean;
}

/**
 * The one way core code talks to a model: cached, validated, retried and accounted. Built by `createLlmClient`
 * over a `LanguageModel` (port), so every provider and the scripted fake get the same policy.
 */
export interface LlmClient {
  readonly ref: ModelRef;
  /** `provider:model` (for openai-compatible, with its base URL). */
  readonly label: string;
  /** Whether the price table knows this model; when false, costs are reported as 0 and should read "unknown". */
  readonly priceKnown: boolean;
  generate<I, O>(input: { prompt: PromptModule<I, O>; input: I; signal?: AbortSignal }): Promise<LlmResult<O>>;
  /** With `onText`, the answer is passed on as it arrives (all at once when cached or when the model cannot stream). */
  generateText<I>(input: {
    prompt: TextPromptModule<I>;
    input: I;
    signal?: AbortSignal;
    onText?: (delta: string) => void;
  }): Promise<LlmTextResult>;
}
