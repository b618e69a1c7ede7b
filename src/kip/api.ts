import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { isPieError } from '../domain/errors.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { WorldStore } from '../ports/world-store.js';
import { isKml, type JsonValue, type Statement } from './ast.js';
import { BOOTSTRAP_VERSION, VIRTUAL_DEFS, bootstrap, isBootstrapped } from './bootstrap.js';
import { KipError, toErrorBody, type KipErrorBody } from './errors.js';
import { ExecContext, type ExecOptions } from './executor/context.js';
import { executeStatement } from './executor/index.js';
import { TypeRegistry } from './executor/registry.js';
import { KipWriter } from './executor/write/writer.js';
import { parseKip } from './parser/index.js';

// ---------------------------------------------------------------- wire schemas (spec §5)

const jsonValue: z.ZodType<JsonValue> = z.json() as z.ZodType<JsonValue>;
const parameters = z.record(z.string(), jsonValue);

/**
 * The argument fields of `execute_kip` / `execute_kip_readonly` as a raw shape (what MCP tool registration takes);
 * `executeKip` itself reports "command and commands together" as KIP_1001.
 */
export const kipArgumentsShape = {
  command: z.string().min(1).optional().describe('One KIP command (KQL, KML or META).'),
  commands: z
    .array(z.union([z.string().min(1), z.object({ command: z.string().min(1), parameters: parameters.optional() })]))
    .min(1)
    .optional()
    .describe('A batch: strings use the shared parameters, {command, parameters} objects their own.'),
  parameters: parameters.optional().describe('Values for :name placeholders, substituted as JSON values.'),
  dry_run: z.boolean().optional().describe('Validate and run without keeping any change.'),
};

/** Arguments of `execute_kip` / `execute_kip_readonly`: `command` or `commands`, shared `parameters`, `dry_run`. */
export const kipArgumentsSchema = z
  .object(kipArgumentsShape)
  .refine((a) => (a.command === undefined) !== (a.commands === undefined), {
    message: 'Give either "command" or "commands", not both.',
  });
export type KipArguments = z.infer<typeof kipArgumentsSchema>;

export const kipErrorSchema = z.object({
  code: z.string().regex(/^KIP_\d{4}$/),
  message: z.string(),
  hint: z.string().optional(),
});

export const kipSingleResponseSchema = z.union([
  z.object({ result: jsonValue, next_cursor: z.string().optional() }).strict(),
  z.object({ error: kipErrorSchema }).strict(),
]);

/** A response: one command's `{result, next_cursor?}` / `{error}`, or a batch's `{result: [each…]}`. */
export const kipResponseSchema = z.union([
  kipSingleResponseSchema,
  z.object({ result: z.array(kipSingleResponseSchema) }).strict(),
]);

/** The response as one object shape (for MCP structuredContent): `result` (+ `next_cursor`) or `error`. */
export const kipResponseShape = {
  result: jsonValue.optional(),
  next_cursor: z.string().optional(),
  error: kipErrorSchema.optional(),
};

export type KipSingleResponse = { result: JsonValue; next_cursor?: string } | { error: KipErrorBody };
export type KipResponse = KipSingleResponse | { result: KipSingleResponse[] };
export type KipCommandItem = string | { command: string; parameters?: Record<string, JsonValue> | undefined };

export interface ExecuteKipInput {
  store: WorldStore;
  command?: string | undefined;
  commands?: readonly KipCommandItem[] | undefined;
  parameters?: Record<string, JsonValue> | undefined;
  /** Run everything, report it, and keep nothing (one transaction rolled back at the end). */
  dryRun?: boolean | undefined;
  /** `execute_kip_readonly`: KML is refused and nothing is written (not even the schema bootstrap). */
  readOnly?: boolean | undefined;
  /** What a refused KML command is told to do instead (default: use execute_kip; a read-only server has none). */
  writeHint?: string | undefined;
  clock?: Clock | undefined;
  newId?: (() => string) | undefined;
  /** For SEARCH … MODE "semantic" / "hybrid"; without one, semantic search degrades to keyword. */
  embedder?: Embedder | undefined;
  timeoutMs?: number | undefined;
  maxSolutions?: number | undefined;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_SOLUTIONS = 500_000;

class Rollback extends Error {
  constructor(readonly response: KipResponse) {
    super('dry run');
  }
}

/**
 * Executes KIP commands against the world store (spec §5). Each KML command runs in its own transaction (all its
 * statements commit together or not at all) and is journaled under a run id recorded in the maintenance log. In a
 * batch, KQL/META/syntax errors stay inline and execution continues; the first KML error stops the batch.
 */
export async function executeKip(input: ExecuteKipInput): Promise<KipResponse> {
  if ((input.command === undefined) === (input.commands === undefined)) {
    return {
      error: toErrorBody(new KipError('KIP_1001', 'Give either "command" or "commands", not both (and not neither).')),
    };
  }
  if (!input.dryRun) return run(input.store, input);
  try {
    await input.store.transaction(async (tx) => {
      throw new Rollback(await run(tx, input));
    });
  } catch (error) {
    if (error instanceof Rollback) return error.response;
    return { error: toErrorBody(error) };
  }
  return { error: toErrorBody(new KipError('KIP_4003', 'The dry run did not roll back.')) };
}

async function run(store: WorldStore, input: ExecuteKipInput): Promise<KipResponse> {
  const options: ExecOptions = {
    now: input.clock?.now() ?? Date.now(),
    newId: input.newId ?? randomUUID,
    embedder: input.embedder,
    maxSolutions: input.maxSolutions ?? DEFAULT_MAX_SOLUTIONS,
    deadline: Date.now() + (input.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  };
  let registry: TypeRegistry;
  try {
    // Only a command that writes bootstraps the schema into the store: a query reads it virtually, so asking a
    // question never adds KIP's type definitions to the person's world (their counts, importance, health).
    registry = await prepare(store, options, input.readOnly === true || !writesAny(input));
  } catch (error) {
    return { error: toErrorBody(error) };
  }
  const shared = input.parameters ?? {};
  if (input.command !== undefined) {
    return (await runOne({ store, registry, options, text: input.command, params: shared, input })).response;
  }
  const results: KipSingleResponse[] = [];
  for (const item of input.commands ?? []) {
    const text = typeof item === 'string' ? item : item.command;
    const params = typeof item === 'string' ? shared : (item.parameters ?? {});
    const r = await runOne({ store, registry, options, text, params, input });
    results.push(r.response);
    if ('error' in r.response && r.kml) break;
  }
  return { result: results };
}

/** Whether any command given would write (has a KML statement); a command that does not parse writes nothing. */
function writesAny(input: ExecuteKipInput): boolean {
  const items: { command: string; parameters?: Record<string, JsonValue> | undefined }[] =
    input.command !== undefined ? [{ command: input.command, parameters: input.parameters }] : [];
  for (const item of input.commands ?? []) {
    items.push(typeof item === 'string' ? { command: item, parameters: input.parameters } : item);
  }
  return items.some(({ command, parameters }) => {
    try {
      return parseKip(command, parameters ?? input.parameters ?? {}).some(isKml);
    } catch {
      return false;
    }
  });
}

/** The schema registry, bootstrapping the store on first use (virtually when it must not or cannot be written). */
async function prepare(store: WorldStore, options: ExecOptions, readOnly: boolean): Promise<TypeRegistry> {
  if (await isBootstrapped(store)) return TypeRegistry.load({ store });
  if (!readOnly) {
    try {
      await store.transaction((tx) => bootstrap({ tx, options }));
      return TypeRegistry.load({ store });
    } catch (error) {
      if (!isPieError(error, 'UNSUPPORTED')) throw error;
    }
  }
  return TypeRegistry.load({ store, virtual: VIRTUAL_DEFS });
}

async function runOne(input: {
  store: WorldStore;
  registry: TypeRegistry;
  options: ExecOptions;
  text: string;
  params: Record<string, JsonValue>;
  input: Pick<ExecuteKipInput, 'readOnly' | 'writeHint'>;
}): Promise<{ response: KipSingleResponse; kml: boolean }> {
  let statements: Statement[];
  try {
    statements = parseKip(input.text, input.params);
  } catch (error) {
    return { response: { error: toErrorBody(error) }, kml: false };
  }
  const kml = statements.some(isKml);
  try {
    if (kml && input.input.readOnly) {
      throw new KipError(
        'KIP_1001',
        'execute_kip_readonly accepts KQL (FIND) and META (DESCRIBE, SEARCH, EXPORT) only.',
        {
          hint: input.input.writeHint ?? 'Use execute_kip to write.',
        },
      );
    }
    const outputs = kml
      ? await input.store.transaction((tx) => runStatements({ ...input, store: tx, statements, write: true }))
      : await runStatements({ ...input, statements, write: false });
    const only = outputs.length === 1 ? outputs[0] : undefined;
    if (only)
      return {
        response: only.nextCursor ? { result: only.result, next_cursor: only.nextCursor } : { result: only.result },
        kml,
      };
    return { response: { result: outputs.map((o) => o.result) }, kml };
  } catch (error) {
    return { response: { error: toErrorBody(error) }, kml };
  }
}

async function runStatements(input: {
  store: WorldStore;
  registry: TypeRegistry;
  options: ExecOptions;
  text: string;
  statements: Statement[];
  write: boolean;
}) {
  const ctx = new ExecContext(input.store, input.registry, input.options);
  const runId = `kip-${input.options.newId()}`;
  if (input.write) ctx.writer = new KipWriter(input.store, runId, input.options.now);
  const outputs = [];
  for (const stmt of input.statements) outputs.push(await executeStatement(ctx, stmt));
  const counts = ctx.writer?.counts ?? {};
  if (Object.keys(counts).length > 0) {
    await input.store.maintenance.append({
      id: runId,
      kind: 'kip',
      startedAt: input.options.now,
      finishedAt: input.options.now,
      status: 'completed',
      report: { statements: input.statements.map((s) => s.kind), writes: counts, command: input.text.slice(0, 2000) },
    });
  }
  return outputs;
}

export { BOOTSTRAP_VERSION };
