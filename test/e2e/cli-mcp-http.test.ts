import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie } from '../helpers/cli.js';
import { startHttpChild } from '../mcp/child.js';
import { fixtureWorld, G, structured, textOf } from '../mcp/harness.js';

let world: Awaited<ReturnType<typeof fixtureWorld>>;

beforeAll(async () => {
  world = await fixtureWorld();
});
afterAll(() => world.cleanup());

async function connectHttp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'pie-e2e-http', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe('pie mcp --http', () => {
  it('without PIE_MCP_TOKEN serves on loopback, prints its URL to stderr, and stops on SIGTERM', async () => {
    const { child, url, result } = await startHttpChild([world.db]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connectHttp(url);
    const r = (await client.callTool({
      name: 'get_entity_timeline',
      arguments: { entity_name: 'Tidepool' },
    })) as CallToolResult;
    expect(textOf(r)).toContain('Changed state 2 times');
    await client.close();
    child.kill('SIGTERM');
    const done = await result;
    expect(done.code).toBe(0);
    expect(done.stdout).toBe('');
    expect(done.stderr).toContain('no token (loopback only)');
    expect(done.stderr).toContain('pie mcp: stopping.');
  });

  it('with PIE_MCP_TOKEN answers 401 without the bearer token and serves a client that sends it', async () => {
    const token = 'e2e-secret-token-9876543210';
    const { child, url, result } = await startHttpChild([world.db, '--read-only'], { PIE_MCP_TOKEN: token });
    const refused = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    await expect(connectHttp(url)).rejects.toThrow();
    const client = await connectHttp(url, { Authorization: `Bearer ${token}` });
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).not.toContain('ingest_episode');
    const r = (await client.callTool({ name: 'get_contradictions', arguments: {} })) as CallToolResult;
    expect(structured<{ unresolved: number }>(r).unresolved).toBe(2);
    await client.close();
    child.kill('SIGINT');
    const done = await result;
    expect(done.code).toBe(0);
    expect(done.stderr).toContain('(read-only); every request needs "Authorization: Bearer $PIE_MCP_TOKEN"');
  });

  it('refuses to listen beyond loopback without a token', async () => {
    const r = await pie(['--db', world.db, ...G, 'mcp', '--http', '--host', '0.0.0.0', '--port', '0']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--host 0.0.0.0 would expose the world model beyond this machine; set PIE_MCP_TOKEN');
  });

  it('rejects a bad port or budget before opening anything', async () => {
    const port = await pie(['--db', world.db, ...G, 'mcp', '--http', '--port', '70000']);
    expect(port.stderr).toContain('--port must be a whole number from 0 to 65535');
    const budget = await pie(['--db', world.db, ...G, 'mcp', '--max-tokens', '50']);
    expect(budget.stderr).toContain('--max-tokens must be at least 200');
  });
});
