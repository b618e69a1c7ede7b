import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHttpServer, type RunningHttpServer } from '../../src/serve/mcp/http.js';
import { connect, fixtureWorld, structured, textOf, type Connected } from './harness.js';

let world: Awaited<ReturnType<typeof fixtureWorld>>;
let local: Connected;
const TOKEN = 'test-token-0123456789abcdef';
const SLOW = 'A slow note about the Heron project for the disconnect test.';

beforeAll(async () => {
  world = await fixtureWorld();
  // A scripted model that takes a while, so a client can leave in the middle of ingest_episode.
  const script = join(world.dir, 'slow.json');
  const answer = { entities: [{ name: 'Heron', type: 'project', state: { stage: 'idea' } }], summary: 'Heron.' };
  writeFileSync(script, JSON.stringify({ delayMs: 1500, prompts: { 'extract-batch@3': [{ response: answer }] } }));
  local = await connect({ db: world.db, env: { PIE_LLM: `fake:${script}` } });
});
afterAll(async () => {
  await local.close();
  world.cleanup();
});

async function client(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'pie-http-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

async function serve(token?: string, handshakeMs?: number): Promise<RunningHttpServer> {
  return startHttpServer({
    deps: local.deps,
    host: '127.0.0.1',
    port: 0,
    ...(token ? { token } : {}),
    ...(handshakeMs === undefined ? {} : { handshakeMs }),
  });
}

/** A raw request, so that headers fetch would not let us set (Host) can be sent. */
function raw(
  url: string,
  input: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: input.method ?? 'POST', headers: input.headers ?? {} }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(input.body);
  });
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('Streamable HTTP without a token', () => {
  let server: RunningHttpServer;
  beforeAll(async () => {
    server = await serve();
  });
  afterAll(() => server.close());

  it('serves the tools to a client session on loopback, and forgets the session when the client ends it', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const c = await client(server.url);
    expect((await c.listTools()).tools).toHaveLength(14);
    const r = (await c.callTool({ name: 'get_entity', arguments: { name: 'Maya' } })) as CallToolResult;
    expect(structured<{ entity: { name: string } }>(r).entity.name).toBe('Maya Chen');
    // Arguments that are not an object get a tool error over HTTP too (answered before the SDK's validation).
    const bad = (await c.request(
      { method: 'tools/call', params: { name: 'get_entity', arguments: 'Maya' as never } },
      CallToolResultSchema,
    )) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('get_entity takes its arguments as a JSON object');
    expect(server.sessions()).toBe(1);
    await (c.transport as StreamableHTTPClientTransport).terminateSession();
    await c.close();
    expect(server.sessions()).toBe(0);
  });

  it('refuses a foreign Host or Origin (DNS rebinding), unknown sessions, other paths, and oversized bodies', async () => {
    const foreignHost = await raw(server.url, { headers: { ...JSON_HEADERS, host: 'evil.example' }, body: INITIALIZE });
    expect(foreignHost.status).toBe(403);
    const foreignOrigin = await raw(server.url, {
      headers: { ...JSON_HEADERS, origin: 'https://evil.example' },
      body: INITIALIZE,
    });
    expect(foreignOrigin.status).toBe(403);
    const unknown = await raw(server.url, { headers: { ...JSON_HEADERS, 'mcp-session-id': 'nope' }, body: INITIALIZE });
    expect(unknown.status).toBe(404);
    const noSession = await raw(server.url, {
      headers: JSON_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
    const elsewhere = await raw(server.url.replace('/mcp', '/other'), { headers: JSON_HEADERS, body: INITIALIZE });
    expect(elsewhere.status).toBe(404);
    const huge = await raw(server.url, { headers: JSON_HEADERS, body: 'x'.repeat(1024 * 1024 + 1) });
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body)).toMatchObject({ error: { message: expect.stringContaining('Request too large') } });
    const notJson = await raw(server.url, { headers: JSON_HEADERS, body: '{"jsonrpc":' });
    expect(notJson.status).toBe(400);
    // A local browser client (the MCP Inspector) gets CORS headers.
    const preflight = await raw(server.url, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:6274');
    expect(preflight.headers['access-control-expose-headers']).toContain('Mcp-Session-Id');
  });

  it('survives a client that disconnects in the middle of a call, and still finishes the write', async () => {
    const c = await client(server.url);
    const sessionId = (c.transport as StreamableHTTPClientTransport).sessionId ?? '';
    const abort = new AbortController();
    const call = fetch(server.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 77,
        method: 'tools/call',
        params: { name: 'ingest_episode', arguments: { content: SLOW } },
      }),
      signal: abort.signal,
    });
    const gone = call.then(
      async (res) => {
        const reader = res.body?.getReader();
        await new Promise((r) => setTimeout(r, 300));
        abort.abort();
        await reader?.read().catch(() => undefined);
      },
      () => undefined,
    );
    await gone;
    // The model answers after 1.5 s; by then the client is long gone.
    await new Promise((r) => setTimeout(r, 2500));
    const after = (await c.callTool({ name: 'search_memory', arguments: { query: 'Heron' } })) as CallToolResult;
    expect(textOf(after)).toContain('Heron (project)');
    const other = await client(server.url);
    expect((await other.listTools()).tools.length).toBe(14);
    await other.close();
    await c.close();
  });
});

describe('Streamable HTTP with PIE_MCP_TOKEN', () => {
  let server: RunningHttpServer;
  beforeAll(async () => {
    server = await serve(TOKEN);
  });
  afterAll(() => server.close());

  it('answers 401 without the bearer token or with a wrong one', async () => {
    const none = await raw(server.url, { headers: JSON_HEADERS, body: INITIALIZE });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="pie"');
    const wrong = await raw(server.url, {
      headers: { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}x` },
      body: INITIALIZE,
    });
    expect(wrong.status).toBe(401);
    await expect(client(server.url)).rejects.toThrow();
  });

  it('takes the scheme name in any case (RFC 7235: "bearer", "BEARER"), the token itself exactly', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const r = await raw(server.url, {
        headers: { ...JSON_HEADERS, authorization: `${scheme} ${TOKEN}` },
        body: INITIALIZE,
      });
      expect(r.status, scheme).toBe(200);
      expect(r.headers['mcp-session-id'], scheme).toBeTruthy();
    }
    const c = await client(server.url, { Authorization: `bearer ${TOKEN}` });
    expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    await c.close();
    const upper = await raw(server.url, {
      headers: { ...JSON_HEADERS, authorization: `Bearer ${TOKEN.toUpperCase()}` },
      body: INITIALIZE,
    });
    expect(upper.status).toBe(401);
  });

  it('serves a client that sends it', async () => {
    const c = await client(server.url, { Authorization: `Bearer ${TOKEN}` });
    const r = (await c.callTool({ name: 'list_periods', arguments: {} })) as CallToolResult;
    expect(structured<{ periods: unknown[] }>(r).periods).toHaveLength(2);
    await c.close();
  });

  it('is required before listening anywhere but loopback', async () => {
    await expect(startHttpServer({ deps: local.deps, host: '0.0.0.0', port: 0 })).rejects.toThrow(
      /--host 0\.0\.0\.0 would expose the world model beyond this machine; set PIE_MCP_TOKEN/,
    );
    await expect(startHttpServer({ deps: local.deps, host: '0.0.0.0', port: 0, token: 'short' })).rejects.toThrow(
      /PIE_MCP_TOKEN has 5 characters, too short to guard --host 0\.0\.0\.0/,
    );
  });
});

describe('Streamable HTTP sessions whose handshake never completes', () => {
  const HANDSHAKE_MS = 300;
  let server: RunningHttpServer;
  beforeAll(async () => {
    server = await serve(undefined, HANDSHAKE_MS);
  });
  afterAll(() => server.close());

  it('closes a session whose client never comes back after initialize', async () => {
    const r = await raw(server.url, { headers: JSON_HEADERS, body: INITIALIZE });
    expect(r.status).toBe(200);
    const sessionId = String(r.headers['mcp-session-id']);
    expect(server.sessions()).toBe(1);
    await vi.waitFor(() => expect(server.sessions()).toBe(0), { timeout: 10_000, interval: 50 });
    const late = await raw(server.url, {
      headers: { ...JSON_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(late.status).toBe(404);
  });

  it('keeps a session whose client completed the handshake', async () => {
    const c = await client(server.url);
    expect(server.sessions()).toBe(1);
    // Well past the handshake deadline: the session is still there and answers.
    await new Promise((r) => setTimeout(r, HANDSHAKE_MS * 3));
    expect(server.sessions()).toBe(1);
    expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    await (c.transport as StreamableHTTPClientTransport).terminateSession();
    await c.close();
    expect(server.sessions()).toBe(0);
  });

  it('opens no session for an initialize the transport refuses', async () => {
    const r = await raw(server.url, {
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: INITIALIZE,
    });
    expect(r.status).toBe(406);
    expect(r.headers['mcp-session-id']).toBeUndefined();
    expect(server.sessions()).toBe(0);
  });
});

describe('Streamable HTTP session cap', () => {
  it('at the cap closes the session idle longest, or answers 503 when every session is in use', async () => {
    const server = await startHttpServer({
      deps: local.deps,
      host: '127.0.0.1',
      port: 0,
      maxSessions: 2,
      evictableIdleMs: 2_000,
    });
    try {
      const first = await client(server.url);
      const second = await client(server.url);
      expect(server.sessions()).toBe(2);
      // Both just used: a third client is refused, and nothing is dropped.
      const refused = await raw(server.url, { headers: JSON_HEADERS, body: INITIALIZE });
      expect(refused.status).toBe(503);
      expect(refused.body).toContain('Too many open sessions (2)');
      expect(server.sessions()).toBe(2);
      // Once the first has been idle past the threshold, a new client takes its place.
      await new Promise((r) => setTimeout(r, 2_500));
      await second.listTools();
      const third = await client(server.url);
      expect(server.sessions()).toBe(2);
      expect((await third.listTools()).tools.length).toBeGreaterThan(0);
      expect((await second.listTools()).tools.length).toBeGreaterThan(0);
      await expect(first.listTools()).rejects.toThrow();
      for (const c of [first, second, third]) await c.close().catch(() => undefined);
    } finally {
      await server.close();
    }
  });
});
