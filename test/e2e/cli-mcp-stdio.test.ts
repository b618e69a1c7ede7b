import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { fixtureWorld, G, structured, textOf } from '../mcp/harness.js';

let world: Awaited<ReturnType<typeof fixtureWorld>>;

beforeAll(async () => {
  world = await fixtureWorld();
});
afterAll(() => world.cleanup());

const PIE = [join(ROOT, 'bin', 'pie.ts')];
const ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PIE_TZ: 'UTC' };

/** `pie mcp` as Claude Desktop runs it: a child process speaking MCP on stdin/stdout. */
async function spawnClient(extra: string[] = []): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', ...PIE, '--db', world.db, ...G, 'mcp', ...extra],
    env: ENV,
    cwd: ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'pie-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('pie mcp over stdio', () => {
  it('serves every tool to the SDK client', async () => {
    const { client, stderr } = await spawnClient();
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(14);
      const r = (await client.callTool({
        name: 'query_world',
        arguments: { query: 'How has Tidepool changed?' },
      })) as CallToolResult;
      expect(textOf(r)).toContain('Pivoted from surf reports to tide alerts for kayakers');
      expect(structured<{ intent: string }>(r).intent).toBe('temporal_diff');
      const missing = (await client.callTool({ name: 'get_entity', arguments: { name: 'Tidpool' } })) as CallToolResult;
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain('"Tidepool"');
      expect(stderr()).toContain('PIE MCP server ready on stdio');
    } finally {
      await client.close();
    }
  });

  it('--read-only hides ingest_episode', async () => {
    const { client } = await spawnClient(['--read-only']);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toHaveLength(11);
      expect(names).not.toContain('ingest_episode');
      expect(names).toContain('get_pyramid');
      expect(names).not.toContain('execute_kip');
      expect(names).toContain('query_world');
    } finally {
      await client.close();
    }
  });

  it('writes nothing but protocol messages to stdout, logs to stderr, and exits cleanly when stdin closes', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...PIE, '--db', world.db, ...G, 'mcp'], {
      cwd: ROOT,
      env: ENV,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const send = (msg: object): boolean => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'get_world_snapshot', arguments: { period: 'junior year' } } });
    send({
      id: 3,
      method: 'tools/call',
      params: { name: 'ingest_episode', arguments: { content: 'We started Wren.' } },
    });
    await waitFor(() => stdout.includes('"id":3'), 30_000);
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(0);
    const lines = stdout.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(stderr).toContain('Stopping: the client closed stdin.');
    // The database was closed cleanly: the write-ahead log was checkpointed and removed.
    expect(existsSync(`${world.db}-wal`)).toBe(false);
  });

  it('stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...PIE, '--db', world.db, ...G, 'mcp'], {
      cwd: ROOT,
      env: ENV,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await waitFor(() => stderr.includes('ready on stdio'), 30_000);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(stderr).toContain('Stopping: asked to stop.');
  });
});

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
