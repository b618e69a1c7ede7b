import { PieError, isPieError } from '../domain/errors.js';
import type { Usage } from '../extract/types.js';
import type { Clock } from '../ports/clock.js';
import type { LanguageModel, ModelMessage, ModelRequest, ModelResponse } from '../ports/llm.js';
import type { LlmCacheRepo } from '../ports/world-store.js';
import { llmCacheKey } from './cache-key.js';
import { parseModelJson, type ParseOutcome } from './parse.js';
import { estimateCost, findPrice, type PriceTable } from './prices.js';
import { DEFAULT_RETRY_POLICY, realSleep, retryDelay, type RetryPolicy, type Sleep } from './retry.js';
import { formatModelRef } from './select.js';
import type { LlmCallEvent, LlmClient, LlmRetryEvent } from './types.js';
import { addUsage, emptyUsage } from './usage.js';

export interface LlmClientOptions {
  model: LanguageModel;
  cache: LlmCacheRepo;
  clock: Clock;
  prices: PriceTable;
  /** Default: a real timer. Tests inject a recorder. */
  sleep?: Sleep;
  /** Attempts per model call for rate limits and transient failures (default 6). */
  maxAttempts?: number;
  /** Finer control of backoff (base delay, caps, jitter source). */
  retry?: Partial<RetryPolicy>;
  /** Every answered request, real or cached: tokens and estimated cost for accounting. */
  onCall?: (event: LlmCallEvent) => void;
  /** Every failed attempt that will be retried. */
  onRetry?: (event: LlmRetryEvent) => void;
}

/** What one logical request needs, whatever the answer type. */
interface RequestSpec<T> {
  promptId: string;
  messages: ModelMessage[];
  jsonSchema?: Record<string, unknown>;
  maxOutputTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  onText?: (delta: string) => void;
  validate(text: string): ParseOutcome<T>;
  repairMessage(problem: string): string;
}

function repairJson(problem: string): string {
  return (
    `Your previous answer could not be used: ${problem}. ` +
    'Answer again with the complete, corrected JSON object only: no prose, no code fences.'
  );
}

function validateText(text: string): ParseOutcome<string> {
  return text.trim() === '' ? { ok: false, problem: 'the answer was empty' } : { ok: true, value: text };
}

/**
 * Caching, validation, retries and cost accounting over a `LanguageModel`.
 *
 * - Cache: keyed by `llmCacheKey`; a hit makes no model call and reports zero tokens and zero cost with
 *   `cachedCalls: 1` (usage counts what was spent now; the entry keeps the tokens it cost when it was recorded).
 *   Only valid answers are written. A cached answer that no longer validates is ignored and replaced.
 * - Invalid answers: retried once with the problem appended as a user message; a second invalid answer throws
 *   LLM_INVALID_OUTPUT (details: problem, issues, raw text, usage).
 * - Rate limits and transient failures: exponential backoff with jitter (respecting the server's retry-after),
 *   up to `maxAttempts`; anything else fails at once.
 */
export function createLlmClient(options: LlmClientOptions): LlmClient {
  const { model, cache, clock, prices } = options;
  const ref = model.ref;
  const label = formatModelRef(ref);
  const sleep = options.sleep ?? realSleep;
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...options.retry,
    ...(options.maxAttempts === undefined ? {} : { maxAttempts: Math.max(1, options.maxAttempts) }),
  };

  async function callWithRetries(request: ModelRequest): Promise<ModelResponse> {
    // Once part of an answer has been shown, a retry would show it twice: a failure then ends the call.
    let shown = false;
    const onText = request.onText;
    const req: ModelRequest = onText
      ? {
          ...request,
          onText: (delta) => {
            shown = true;
            onText(delta);
          },
        }
      : request;
    for (let attempt = 1; ; attempt++) {
      try {
        return await model.generate(req);
      } catch (error) {
        if (request.signal?.aborted || shown) throw error;
        const delayMs = retryDelay({ error, attempt, policy });
        if (delayMs === null) throw attempt > 1 ? withAttempts(error, attempt) : error;
        options.onRetry?.({ prompt: request.prompt, model: label, attempt, delayMs, error });
        await sleep(delayMs, request.signal);
      }
    }
  }

  async function run<T>(spec: RequestSpec<T>): Promise<{ value: T; usage: Usage; cached: boolean }> {
    const key = llmCacheKey({ ref, prompt: spec.promptId, messages: spec.messages, jsonSchema: spec.jsonSchema });
    const hit = await cache.get(key);
    if (hit) {
      const parsed = spec.validate(hit.response);
      if (parsed.ok) {
        options.onCall?.({
          prompt: spec.promptId,
          model: label,
          outcome: 'cached',
          inputTokens: 0,
          outputTokens: 0,
          costUsd: 0,
          costKnown: true,
        });
        spec.onText?.(hit.response);
        return { value: parsed.value, usage: { ...emptyUsage(), cachedCalls: 1 }, cached: true };
      }
    }

    let usage = emptyUsage();
    let messages = spec.messages;
    const answers: { text: string; problem: string; response: ModelResponse; outcome: ParseOutcome<T> }[] = [];
    let streamed = false;
    const onText = spec.onText;
    for (let round = 1; round <= 2; round++) {
      const response = await callWithRetries({
        ...(onText === undefined
          ? {}
          : {
              onText: (delta: string) => {
                streamed = true;
                onText(delta);
              },
            }),
        prompt: spec.promptId,
        messages,
        ...(spec.jsonSchema === undefined
          ? {}
          : { jsonSchema: spec.jsonSchema, schemaName: schemaName(spec.promptId) }),
        ...(spec.maxOutputTokens === undefined ? {} : { maxOutputTokens: spec.maxOutputTokens }),
        ...(spec.temperature === undefined ? {} : { temperature: spec.temperature }),
        ...(spec.signal === undefined ? {} : { signal: spec.signal }),
      });
      const cost = estimateCost({
        prices,
        ref,
        inputTokens: response.inputTokens,
        outputTokens: response.outputTokens,
      });
      usage = addUsage(usage, {
        inputTokens: response.inputTokens,
        outputTokens: response.outputTokens,
        costUsd: cost.usd,
        cachedCalls: 0,
        calls: 1,
      });
      const outcome = spec.validate(response.text);
      options.onCall?.({
        prompt: spec.promptId,
        model: label,
        outcome: outcome.ok ? 'valid' : 'invalid',
        inputTokens: response.inputTokens,
        outputTokens: response.outputTokens,
        costUsd: cost.usd,
        costKnown: cost.known,
        ...(response.finishReason === undefined ? {} : { finishReason: response.finishReason }),
      });
      if (outcome.ok) {
        if (onText && !streamed) onText(response.text);
        await cache.put({
          key,
          model: label,
          prompt: spec.promptId,
          response: response.text,
          tokensIn: usage.inputTokens,
          tokensOut: usage.outputTokens,
          createdAt: clock.now(),
        });
        return { value: outcome.value, usage, cached: false };
      }
      answers.push({ text: response.text, problem: outcome.problem, response, outcome });
      messages = [
        ...spec.messages,
        { role: 'assistant', content: response.text },
        { role: 'user', content: spec.repairMessage(outcome.problem) },
      ];
    }
    throw invalidOutput({ label, promptId: spec.promptId, answers, usage });
  }

  return {
    ref,
    label,
    priceKnown: findPrice({ prices, ref }) !== null,

    async generate(input) {
      const { prompt } = input;
      const { value, usage, cached } = await run({
        promptId: prompt.id,
        messages: prompt.render(input.input),
        jsonSchema: prompt.jsonSchema,
        ...(prompt.maxOutputTokens === undefined ? {} : { maxOutputTokens: prompt.maxOutputTokens }),
        ...(prompt.temperature === undefined ? {} : { temperature: prompt.temperature }),
        ...(input.signal === undefined ? {} : { signal: input.signal }),
        validate: (text) => parseModelJson({ text, schema: prompt.schema }),
        repairMessage: repairJson,
      });
      return { object: value, usage, cached };
    },

    async generateText(input) {
      const { prompt } = input;
      const { value, usage, cached } = await run({
        promptId: prompt.id,
        messages: prompt.render(input.input),
        ...(prompt.maxOutputTokens === undefined ? {} : { maxOutputTokens: prompt.maxOutputTokens }),
        ...(prompt.temperature === undefined ? {} : { temperature: prompt.temperature }),
        ...(input.signal === undefined ? {} : { signal: input.signal }),
        ...(input.onText === undefined ? {} : { onText: input.onText }),
        validate: validateText,
        repairMessage: () => 'Your previous answer was empty. Please answer the request above.',
      });
      return { text: value, usage, cached };
    },
  };
}

/** Providers want a short identifier: "extract-batch@3" → "extract_batch". */
function schemaName(promptId: string): string {
  return promptId.replace(/@.*$/, '').replace(/[^a-zA-Z0-9_]/g, '_');
}

function withAttempts(error: unknown, attempts: number): unknown {
  if (!isPieError(error)) return error;
  return new PieError(error.code, `${error.message} (gave up after ${attempts} attempts)`, {
    cause: error,
    details: { ...error.details, attempts },
  });
}

function invalidOutput<T>(input: {
  label: string;
  promptId: string;
  answers: { text: string; problem: string; response: ModelResponse; outcome: ParseOutcome<T> }[];
  usage: Usage;
}): PieError {
  const last = input.answers[input.answers.length - 1];
  const cutOff = input.answers.some((a) => a.response.finishReason === 'length');
  const hint = cutOff
    ? 'the answer was cut off at the output-token limit; use smaller batches or a model with a larger output limit'
    : 'retry later or choose a stronger model with --llm';
  const issues = last && !last.outcome.ok ? last.outcome.issues : undefined;
  return new PieError(
    'LLM_INVALID_OUTPUT',
    `${input.label} gave an unusable answer to ${input.promptId} twice (${last?.problem ?? 'no answer'}); ${hint}.`,
    {
      details: {
        prompt: input.promptId,
        model: input.label,
        problem: last?.problem,
        ...(issues === undefined ? {} : { issues }),
        raw: last?.text,
        firstRaw: input.answers[0]?.text,
        usage: input.usage,
        finishReasons: input.answers.map((a) => a.response.finishReason ?? null),
      },
    },
  );
}
