import { setTimeout as delay } from 'node:timers/promises';
import type { LanguageModel, ModelRef, ModelRequest, ModelResponse } from '../../ports/llm.js';

/**
 * A scripted fake `LanguageModel` for tests and benchmarks (no weights can be downloaded here, and tests must not
 * touch the network). Each prompt (`name@version`) gets a queue of answers, consumed in order:
 * - a string is returned as the model's text; an object is JSON-stringified;
 * - a function is called with the request and its result used the same way;
 * - an Error is thrown (script a PieError LLM_RATE_LIMITED to exercise retries).
 * An unscripted prompt or an exhausted queue throws an Error naming the prompt and listing the script: the fake
 * fails loudly rather than inventing an answer. With `respond`, calls the script does not cover go to it instead
 * (benchmarks: "answer everything after 2 s").
 *
 * Token usage is deterministic: ceil(characters / 4) for the input messages and for the answer.
 */
export type ScriptedAnswer = string | object | Error | ((request: ModelRequest) => string | object);

export interface ScriptedModelOptions {
  script?: Record<string, ScriptedAnswer[]>;
  /** Answers calls the script does not cover. */
  respond?: (request: ModelRequest) => string | object | Promise<string | object>;
  /** Wait this long before every answer (honours the request's abort signal). */
  delayMs?: number;
  /** Wait this long between the streamed pieces of a plain-text answer (default 0). */
  streamDelayMs?: number;
  ref?: ModelRef;
}

export interface ScriptedModel extends LanguageModel {
  /** Every request received, in order. */
  readonly calls: ModelRequest[];
  /** Answers not yet used, per prompt. */
  remaining(): Record<string, number>;
}

export function estimateFakeTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function toText(answer: string | object): string {
  return typeof answer === 'string' ? answer : JSON.stringify(answer);
}

export function createScriptedModel(options: ScriptedModelOptions = {}): ScriptedModel {
  const queues = new Map<string, ScriptedAnswer[]>();
  const sizes = new Map<string, number>();
  for (const [prompt, answers] of Object.entries(options.script ?? {})) {
    queues.set(prompt, [...answers]);
    sizes.set(prompt, answers.length);
  }
  const calls: ModelRequest[] = [];

  function describeScript(): string {
    if (queues.size === 0) return 'the script is empty';
    const entries = [...queues].map(([prompt, queue]) => `${prompt} (${queue.length} of ${sizes.get(prompt)} left)`);
    return `scripted prompts: ${entries.join(', ')}`;
  }

  async function answerFor(request: ModelRequest): Promise<string> {
    const queue = queues.get(request.prompt);
    const next = queue?.shift();
    if (next === undefined) {
      if (options.respond) return toText(await options.respond(request));
      const why = queue === undefined ? 'an unscripted prompt' : 'a prompt whose scripted answers are all used';
      throw new Error(`Scripted model: call #${calls.length} is for ${why}, "${request.prompt}"; ${describeScript()}.`);
    }
    if (next instanceof Error) throw next;
    if (typeof next === 'function') return toText(next(request));
    return toText(next);
  }

  return {
    ref: options.ref ?? { provider: 'fake', model: 'scripted' },
    calls,
    remaining: () => Object.fromEntries([...queues].map(([prompt, queue]) => [prompt, queue.length])),
    async generate(request: ModelRequest): Promise<ModelResponse> {
      calls.push(request);
      if (options.delayMs !== undefined && options.delayMs > 0) {
        await delay(options.delayMs, undefined, request.signal === undefined ? undefined : { signal: request.signal });
      }
      const text = await answerFor(request);
      // Streams a plain-text answer in pieces of a few words, as a provider would.
      if (request.onText && request.jsonSchema === undefined) {
        for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
          request.onText(piece);
          await delay(options.streamDelayMs ?? 0);
        }
      }
      const inputChars = request.messages.reduce((sum, m) => sum + m.content.length, 0);
      return {
        text,
        inputTokens: Math.ceil(inputChars / 4),
        outputTokens: estimateFakeTokens(text),
        finishReason: 'stop',
      };
    },
  };
}
