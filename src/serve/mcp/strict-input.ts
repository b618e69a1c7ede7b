import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { editDistance } from '../../resolve/similarity.js';

/**
 * Tool arguments an LLM can get right: every tool's input object refuses argument names it does not know, with a
 * sentence that names the ones it has (a misspelt or invented argument used to be dropped silently, so
 * `get_world_snapshot {at: "2024-06-01"}` answered for now). The JSON Schema clients see says the same
 * (`additionalProperties: false`).
 */
export function strictInput(tool: string, shape: z.ZodRawShape): z.ZodObject {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownArguments(tool, issue.keys, known) : undefined),
  });
}

export function unknownArguments(tool: string, unknown: readonly string[], known: readonly string[]): string {
  const names = unknown.map((k) => `"${k}"`).join(', ');
  const has = unknown.length === 1 ? `has no argument ${names}` : `has no arguments ${names}`;
  if (known.length === 0) return `${tool} ${has}; call it with no arguments.`;
  const near = unknown.map((k) => closest(k, known)).filter((k): k is string => k !== null);
  const hint = near.length > 0 ? ` (did you mean ${[...new Set(near)].join(', ')}?)` : '';
  return `${tool} ${has}${hint}; its arguments are ${known.join(', ')}.`;
}

/**
 * The known name meant: within two edits (or differing only in case and separators), else the one known name of which
 * it is a word ("name" → entity_name, "a" → period_a), if any.
 */
function closest(name: string, known: readonly string[]): string | null {
  const plain = (s: string): string => s.toLowerCase().replace(/[-_ ]/g, '');
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = plain(candidate) === plain(name) ? 0 : editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (best === null || distance < best.distance)) best = { name: candidate, distance };
  }
  if (best) return best.name;
  const word = name.toLowerCase();
  const containing = known.filter((k) => k.toLowerCase().split(/[-_ ]/).includes(word));
  return containing.length === 1 ? (containing[0] ?? null) : null;
}

/** The strict input schema of each tool registered through withStrictArguments, per server. */
const schemas = new WeakMap<McpServer, Map<string, z.ZodObject>>();

/**
 * Makes every tool registered on `server` from now on take a strict input object ({@link strictInput}); the one
 * place the rule is applied, so a new tool cannot forget it. The schemas are kept for {@link argumentProblem}.
 */
export function withStrictArguments(server: McpServer): McpServer {
  const register = server.registerTool.bind(server) as (name: string, config: object, handler: unknown) => unknown;
  const known = new Map<string, z.ZodObject>();
  schemas.set(server, known);
  const strict = (name: string, config: { inputSchema?: z.ZodRawShape }, handler: unknown): unknown => {
    const schema = strictInput(name, config.inputSchema ?? {});
    known.set(name, schema);
    return register(name, { ...config, inputSchema: schema }, handler);
  };
  server.registerTool = strict as typeof server.registerTool;
  return server;
}

/** The argument names of a tool registered through withStrictArguments (empty when unknown). */
export function argumentNames(server: McpServer, tool: string): string[] {
  return Object.keys(schemas.get(server)?.get(tool)?.shape ?? {});
}

/**
 * What is wrong with a call's arguments, in sentences that name the arguments (null when they are fine, the tool is
 * not known, or its schema can only be checked asynchronously: the SDK then checks them). The SDK's own report glues
 * " at <argument>" after every message and prefixes a protocol error code, which reads badly to a model; the unknown
 * names come first, since they say which argument was meant.
 */
export function argumentProblem(server: McpServer, tool: string, args: Record<string, unknown>): string | null {
  const schema = schemas.get(server)?.get(tool);
  if (!schema) return null;
  let parsed: ReturnType<z.ZodObject['safeParse']>;
  try {
    parsed = schema.safeParse(args);
  } catch (error) {
    // An asynchronous refinement: left to the SDK, which parses asynchronously.
    if (error instanceof Error && /async/i.test(error.message)) return null;
    throw error;
  }
  if (parsed.success) return null;
  const issues = [...parsed.error.issues].sort(
    (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
  );
  return [...new Set(issues.map((i) => issueSentence(tool, i, args)))].join(' ');
}

function issueSentence(tool: string, issue: z.core.$ZodIssue, args: Record<string, unknown>): string {
  const argument = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys' || argument === '') return issue.message;
  const first = issue.path[0];
  if (issue.code === 'invalid_type' && typeof first === 'string' && args[first] === undefined) {
    return `${tool} needs the argument ${argument} (${issue.expected}).`;
  }
  const message = /[.!?]$/.test(issue.message.trim()) ? issue.message.trim() : `${issue.message.trim()}.`;
  return message.includes(argument) ? message : `${argument}: ${message}`;
}
