import { z } from 'zod';
import type { ModelMessage } from '../ports/llm.js';

/**
 * Prompts are typed, versioned modules. A module's `name@version` scripts the fake model, keys the response cache
 * and labels cost accounting, so change the version whenever the wording or the schema changes meaning.
 */
export interface TextPromptModule<I> {
  readonly name: string;
  readonly version: number;
  /** `name@version`. */
  readonly id: string;
  render(input: I): ModelMessage[];
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
}

/** A prompt whose answer is a JSON object validated by `schema`. */
export interface PromptModule<I, O> extends TextPromptModule<I> {
  /** Validates (and normalizes) the model's answer; its output type is what callers receive. */
  readonly schema: z.ZodType<O>;
  /** The JSON Schema sent to the model for structured output, derived from `schema` (see `toModelJsonSchema`). */
  readonly jsonSchema: Record<string, unknown>;
}

export interface PromptDefinition<I, O> {
  name: string;
  version: number;
  schema: z.ZodType<O>;
  render(input: I): ModelMessage[];
  maxOutputTokens?: number;
  temperature?: number;
}

/**
 * The JSON Schema a model is asked to follow, derived with zod 4's `z.toJSONSchema` in `io: 'input'` mode: the
 * schema describes what the model must WRITE (before zod's transforms, which cannot be expressed in JSON Schema),
 * so lenient fields (nullable, optional) stay lenient. The `$schema` marker and the redundant
 * `propertyNames: {type: string}` are removed because some providers reject keywords they do not know.
 */
export function toModelJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const raw = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return stripKeywords(raw) as Record<string, unknown>;
}

function stripKeywords(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripKeywords);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if (key === 'propertyNames' && isPlainStringSchema(value)) continue;
    out[key] = stripKeywords(value);
  }
  return out;
}

function isPlainStringSchema(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    Object.keys(value).length === 1 &&
    (value as Record<string, unknown>).type === 'string'
  );
}

/** A structured prompt module; the JSON Schema is derived on first use (no work at import time). */
export function definePrompt<I, O>(definition: PromptDefinition<I, O>): PromptModule<I, O> {
  let jsonSchema: Record<string, unknown> | undefined;
  return {
    name: definition.name,
    version: definition.version,
    id: `${definition.name}@${definition.version}`,
    schema: definition.schema,
    render: definition.render,
    ...(definition.maxOutputTokens === undefined ? {} : { maxOutputTokens: definition.maxOutputTokens }),
    ...(definition.temperature === undefined ? {} : { temperature: definition.temperature }),
    get jsonSchema() {
      jsonSchema ??= toModelJsonSchema(definition.schema);
      return jsonSchema;
    },
  };
}

/** A free-text prompt module. */
export function defineTextPrompt<I>(definition: Omit<PromptDefinition<I, string>, 'schema'>): TextPromptModule<I> {
  return {
    name: definition.name,
    version: definition.version,
    id: `${definition.name}@${definition.version}`,
    render: definition.render,
    ...(definition.maxOutputTokens === undefined ? {} : { maxOutputTokens: definition.maxOutputTokens }),
    ...(definition.temperature === undefined ? {} : { temperature: definition.temperature }),
  };
}
