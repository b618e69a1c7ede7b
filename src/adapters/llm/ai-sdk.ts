import {
  APICallError,
  NoObjectGeneratedError,
  Output,
  generateText,
  streamText,
  jsonSchema,
  type JSONSchema7,
  type ModelMessage as AiMessage,
} from 'ai';
import type {
  FinishReason,
  LanguageModel,
  ModelMessage,
  ModelRef,
  ModelRequest,
  ModelResponse,
} from '../../ports/llm.js';
import { translateLlmError } from './errors.js';
import { setupProvider, type Env, type FetchFunction, type ProviderSetup } from './providers.js';

export interface LanguageModelOptions {
  ref: ModelRef;
  env: Env;
  /** Per-request time limit (default 10 minutes: local models on a CPU are slow on a day's conversations). */
  timeoutMs?: number;
  /** For tests and proxies. */
  fetch?: FetchFunction;
}

export const DEFAULT_TIMEOUT_MS = 600_000;

/**
 * How structured output is requested: `native` asks the provider for JSON matching the schema (OpenAI json_schema,
 * Anthropic output format or JSON tool, Ollama `format`, json_schema on OpenAI-compatible servers); `instructions`
 * puts the schema into the system prompt and parses the text, for servers that reject `response_format`.
 */
type StructuredMode = 'native' | 'instructions';

function schemaInstruction(schema: Record<string, unknown>): string {
  return (
    'Answer with one JSON object and nothing else (no prose, no code fences). ' +
    `It must match this JSON Schema:\n${JSON.stringify(schema)}`
  );
}

function toAiPrompt(
  messages: ModelMessage[],
  extraSystem: string | undefined,
): { system?: string; messages: AiMessage[] } {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
  if (extraSystem !== undefined) system.push(extraSystem);
  const rest: AiMessage[] = messages
    .filter((m) => m.role !== 'system')
    .map((m) => (m.role === 'user' ? { role: 'user', content: m.content } : { role: 'assistant', content: m.content }));
  return system.length > 0 ? { system: system.join('\n\n'), messages: rest } : { messages: rest };
}

const FINISH_REASONS: readonly FinishReason[] = ['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other'];

function finishReason(value: unknown): FinishReason | undefined {
  return FINISH_REASONS.find((reason) => reason === value);
}

/** A 4xx that blames the structured-output request itself (the server does not support `response_format`). */
function rejectsStructuredOutput(error: unknown): boolean {
  if (!APICallError.isInstance(error)) return false;
  const status = error.statusCode ?? 0;
  if (status !== 400 && status !== 422) return false;
  return /response_format|json_schema|structured|grammar|\bformat\b/i.test(
    `${error.message} ${error.responseBody ?? ''}`,
  );
}

/** A plain-text answer streamed piece by piece (`streamText`); an error part fails the call as generateText would. */
async function streamed(
  settings: Parameters<typeof streamText>[0],
  onText: (delta: string) => void,
): Promise<ModelResponse> {
  // Errors arrive as stream parts and are thrown below; the SDK's own logging of them is turned off.
  const result = streamText({ ...settings, onError: () => {} });
  let text = '';
  let reason: FinishReason | undefined;
  let inputTokens = 0;
  let outputTokens = 0;
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      text += part.text;
      onText(part.text);
    } else if (part.type === 'error') {
      throw part.error;
    } else if (part.type === 'finish') {
      reason = finishReason(part.finishReason);
      inputTokens = part.totalUsage.inputTokens ?? 0;
      outputTokens = part.totalUsage.outputTokens ?? 0;
    }
  }
  return { text, inputTokens, outputTokens, ...(reason === undefined ? {} : { finishReason: reason }) };
}

/**
 * The `LanguageModel` port on the Vercel AI SDK 6 (`generateText`, `Output.object` with a JSON Schema). The SDK's
 * own retries are off (`maxRetries: 0`): the core client retries with its own policy. Provider errors become
 * PieErrors in errors.ts. If a server rejects native structured output once, this model switches to putting the
 * schema in the instructions for the rest of its life.
 */
export function createLanguageModel(options: LanguageModelOptions): LanguageModel {
  const setup = setupProvider({
    ref: options.ref,
    env: options.env,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  return createAiSdkModel({ setup, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS });
}

/** The port over an already built AI SDK model (tests pass `MockLanguageModelV3` here). */
export function createAiSdkModel(input: { setup: ProviderSetup; timeoutMs?: number }): LanguageModel {
  const { setup } = input;
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let mode: StructuredMode = 'native';

  async function call(request: ModelRequest, callMode: StructuredMode): Promise<ModelResponse> {
    const schema = request.jsonSchema;
    const native = schema !== undefined && callMode === 'native';
    const prompt = toAiPrompt(
      request.messages,
      schema !== undefined && !native ? schemaInstruction(schema) : undefined,
    );
    const settings = {
      model: setup.model,
      ...prompt,
      maxRetries: 0,
      timeout: timeoutMs,
      providerOptions: setup.providerOptions,
      ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.signal === undefined ? {} : { abortSignal: request.signal }),
    };
    if (request.onText && schema === undefined) return streamed(settings, request.onText);
    try {
      const result = native
        ? await generateText({
            ...settings,
            output: Output.object({
              schema: jsonSchema(schema as JSONSchema7),
              ...(request.schemaName === undefined ? {} : { name: request.schemaName }),
            }),
          })
        : await generateText(settings);
      const reason = finishReason(result.finishReason);
      return {
        text: result.text,
        inputTokens: result.usage.inputTokens ?? 0,
        outputTokens: result.usage.outputTokens ?? 0,
        ...(reason === undefined ? {} : { finishReason: reason }),
      };
    } catch (error) {
      // The answer was not JSON: hand the raw text to the core, which validates, explains and retries.
      if (!NoObjectGeneratedError.isInstance(error)) throw error;
      const reason = finishReason(error.finishReason);
      return {
        text: error.text ?? '',
        inputTokens: error.usage?.inputTokens ?? 0,
        outputTokens: error.usage?.outputTokens ?? 0,
        ...(reason === undefined ? {} : { finishReason: reason }),
      };
    }
  }

  return {
    ref: setup.ref,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      try {
        try {
          return await call(request, mode);
        } catch (error) {
          if (request.signal?.aborted || mode !== 'native' || request.jsonSchema === undefined) throw error;
          if (!rejectsStructuredOutput(error)) throw error;
          mode = 'instructions';
          return await call(request, mode);
        }
      } catch (error) {
        if (request.signal?.aborted) throw error;
        throw translateLlmError({ error, context: setup.context, timeoutMs });
      }
    },
  };
}
