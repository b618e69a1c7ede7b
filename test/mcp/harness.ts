import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { compose, type Services } from '../../src/compose.js';
import { loadConfig } from '../../src/config/config.js';
import { createMcpDeps } from '../../src/serve/cli/commands/mcp.js';
import type { McpDeps } from '../../src/serve/mcp/deps.js';
import { connectMcp } from '../../src/serve/mcp/connect.js';
import { createMcpServer } from '../../src/serve/mcp/server.js';
import { ROOT, pie, tempDir } from '../helpers/cli.js';

export const WORLD_FIXTURE = join(ROOT, 'test', 'fixtures', 'query', 'world.jsonl');
export const NOW = '2025-11-01';
export const G = ['--tz', 'UTC', '--now', NOW];

/** A temporary database holding the query fixture world (applied with `pie apply`, as a user would). */
export async function fixtureWorld(): Promise<{ dir: string; db: string; cleanup: () => void }> {
  const { dir, cleanup } = tempDir('pie-mcp-');
  const db = join(dir, 'pie.db');
  const applied = await pie(['--db', db, ...G, 'apply', WORLD_FIXTURE]);
  if (applied.code !== 0) throw new Error(applied.stderr);
  return { dir, db, cleanup };
}

export interface Connected {
  client: Client;
  services: Services;
  deps: McpDeps;
  logs: string[];
  /** Calls a tool; the client validates structured content against the listed output schema. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** The server over `db`, wired like `pie mcp`, with an SDK Client over an in-memory transport. */
export async function connect(input: {
  db: string;
  readOnly?: boolean;
  maxTokens?: number;
  env?: Record<string, string>;
  /** How long ingest_episode waits for another extraction (default 30 s). */
  leaseWaitMs?: number;
}): Promise<Connected> {
  const env = { PIE_TZ: 'UTC', ...input.env };
  const config = loadConfig({ flags: { db: input.db, now: NOW, tz: 'UTC' }, env });
  const services = await compose({ config, env, readonly: input.readOnly ?? false });
  const logs: string[] = [];
  const deps = createMcpDeps({
    services,
    tz: 'UTC',
    readOnly: input.readOnly ?? false,
    ...(input.maxTokens === undefined ? {} : { maxTokens: input.maxTokens }),
    ...(input.leaseWaitMs === undefined ? {} : { leaseWaitMs: input.leaseWaitMs }),
    log: (m) => logs.push(m),
  });
  const server = createMcpServer(deps);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connectMcp(server, serverSide);
  const client = new Client({ name: 'pie-test', version: '1.0.0' });
  await client.connect(clientSide);
  // Listing caches the output schemas, so every callTool below is validated against them by the client.
  await client.listTools();
  return {
    client,
    services,
    deps,
    logs,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
      await services.close();
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export interface BudgetOut {
  maxTokens: number;
  textTokens: number;
  truncated: boolean;
  note: string | null;
  omitted: { path: string; kept: number; total: number }[];
}

/** The structured content of a successful call (fails the test on an error result). */
export function structured<T = Record<string, unknown>>(result: CallToolResult): T & { budget: BudgetOut } {
  if (result.isError) throw new Error(`tool failed: ${textOf(result)}`);
  if (!result.structuredContent) throw new Error('no structured content');
  return result.structuredContent as T & { budget: BudgetOut };
}
