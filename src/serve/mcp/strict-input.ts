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

/** The known name within two edits (or differing only in case and separators), if any. */
function closest(name: string, known: readonly string[]): string | null {
  const plain = (s: string): string => s.toLowerCase().replace(/[-_ ]/g, '');
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = plain(candidate) === plain(name) ? 0 : editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (best === null || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name ?? null;
}

/**
 * Makes every tool registered on `server` from now on take a strict input object ({@link strictInput}); the one
 * place the rule is applied, so a new tool cannot forget it.
 */
export function withStrictArguments(server: McpServer): McpServer {
  const register = server.registerTool.bind(server) as (name: string, config: object, handler: unknown) => unknown;
  const strict = (name: string, config: { inputSchema?: z.ZodRawShape }, handler: unknown): unknown =>
    register(name, { ...config, inputSchema: strictInput(name, config.inputSchema ?? {}) }, handler);
  server.registerTool = strict as typeof server.registerTool;
  return server;
}
