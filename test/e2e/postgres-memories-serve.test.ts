import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';
import { describeWithPostgres } from '../helpers/postgres.js';
import { startHttpChild } from '../mcp/child.js';
import { startServeChild, stopServerChild as stop } from '../helpers/server-child.js';
import { G } from '../mcp/harness.js';

/**
 * Issue 18, "Many memories, one server": `pie serve --memories` and `pie mcp --http --memories` over three memories
 * of one PostgreSQL database (alice, bob and the default one), each holding entities no other has. Every check that
 * a token reads its own memory is paired with one that it never reads another's, so a server that routed to the
 * wrong memory, or served one session to another memory's token, fails here.
 */

const TOKENS = {
  alice: 'alice-e2e-token-0123456789abcdef',
  bob: 'bob-e2e-token-fedcba9876543210xyz',
  default: 'default-e2e-token-00112233445566',
};

/** What each memory holds: two entities only it has. */
const WORLDS = {
  alice: ['Marigold Lighthouse', 'Ansel Varga'],
  bob: ['Obsidian Kettle', 'Brigid Okafor'],
  default: ['Cinder Atlas', 'Tamsin Yorke'],
} as const;
type MemoryName = keyof typeof WORLDS;
const NAMES = Object.keys(WORLDS) as MemoryName[];

/** One ExtractionResult line (the `pie apply` input) naming a memory's project and person. */
function extraction(memory: MemoryName): string {
  const [project = '', person = ''] = WORLDS[memory];
  return JSON.stringify({
    batch: { id: `${memory}-1`, date: '2025-03-01T10:00:00Z', episodeIds: [`${memory}-c1`] },
    entities: [
      { name: project, type: 'project', state: { stage: 'idea' } },
      { name: person, type: 'person', state: { role: 'collaborator' } },
    ],
    relationships: [{ source: person, target: project, type: 'WORKS_ON' }],
    summary: `Started ${project} with ${person}.`,
    significance: 0.6,
  });
}

function others(memory: MemoryName): string[] {
  return NAMES.filter((n) => n !== memory).flatMap((n) => [...WORLDS[n]]);
}

async function connectMcp(url: string, token: string): Promise<{ client: Client; sessionId: string }> {
  const client = new Client({ name: 'pie-e2e-memories', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  const sessionId = transport.sessionId;
  if (sessionId === undefined) throw new Error('no session id');
  return { client, sessionId };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The names of the entities a search_memory answer found (results' entities and titles). */
function searchText(result: CallToolResult): string {
  const structured = result.structuredContent as { results?: unknown[] } | undefined;
  return JSON.stringify(structured?.results ?? []);
}

describeWithPostgres('many memories, one server (--memories)', (server) => {
  let dir: string;
  let cleanup: () => void;
  let tokensFile: string;

  beforeAll(async () => {
    ({ dir, cleanup } = tempDir('pie-memserve-'));
    const url = server().url;
    for (const memory of NAMES) {
      const file = join(dir, `${memory}.jsonl`);
      writeFileSync(file, `${extraction(memory)}\n`);
      const applied = await pie(['--db', url, '--memory', memory, ...G, 'apply', file]);
      expect(applied.code, applied.stderr).toBe(0);
    }
    tokensFile = join(dir, 'memories.json');
    writeFileSync(tokensFile, JSON.stringify(TOKENS));
    chmodSync(tokensFile, 0o600);
  }, 120_000);
  afterAll(() => cleanup());

  it('pie serve: each token reads its own memory and never another; a wrong token gets 401', async () => {
    const running = await startServeChild(['--db', server().url, ...G], ['--memories', tokensFile]);
    try {
      const get = async (path: string, token?: string): Promise<{ status: number; body: string }> => {
        const res = await fetch(new URL(path, running.url), {
          headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        });
        return { status: res.status, body: await res.text() };
      };
      for (const memory of NAMES) {
        const token = TOKENS[memory];
        const list = await get('/api/entities?limit=500', token);
        expect(list.status).toBe(200);
        const names = (JSON.parse(list.body) as { items: { name: string }[] }).items.map((e) => e.name).sort();
        expect(names, memory).toEqual([...WORLDS[memory]].sort());

        for (const own of WORLDS[memory]) {
          const found = await get(`/api/search?q=${encodeURIComponent(own)}`, token);
          expect(found.status).toBe(200);
          const { entities } = JSON.parse(found.body) as { entities: unknown[] };
          expect(JSON.stringify(entities), `${memory} finds ${own}`).toContain(own);
          expect((await get(`/api/entities/${encodeURIComponent(own)}`, token)).status).toBe(200);
        }
        for (const foreign of others(memory)) {
          const searched = await get(`/api/search?q=${encodeURIComponent(foreign)}`, token);
          expect(searched.status).toBe(200);
          const body = JSON.parse(searched.body) as { items: unknown[]; entities: unknown[] };
          expect(JSON.stringify([body.items, body.entities]), `${memory} must not find ${foreign}`).not.toContain(
            foreign,
          );
          const entity = await get(`/api/entities/${encodeURIComponent(foreign)}`, token);
          expect(entity.status, `${memory} must not open ${foreign}`).toBe(404);
          expect(entity.body).not.toContain('collaborator');
        }
      }

      for (const token of [undefined, 'not-a-memory-token-0123456789', `${TOKENS.alice}x`, TOKENS.alice.slice(1)]) {
        const refused = await get('/api/entities', token);
        expect(refused.status).toBe(401);
        expect(refused.body).toContain('UNAUTHORIZED');
        for (const memory of NAMES) for (const name of WORLDS[memory]) expect(refused.body).not.toContain(name);
      }
      // The web UI's files need no token, as on a single-memory server (this checkout has no built UI: 404 text).
      const page = await get('/');
      expect(page.status).not.toBe(401);
    } finally {
      const done = await stop(running);
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toContain('3 memories (alice, bob, default), each request');
      expect(done.stderr).not.toContain(TOKENS.alice);
    }
  }, 180_000);

  it('pie mcp --http: each token reads its own memory; a session is bound to the memory that opened it', async () => {
    const running = await startHttpChild([server().url, '--memories', tokensFile]);
    const clients: Client[] = [];
    try {
      const sessions = {} as Record<MemoryName, { client: Client; sessionId: string }>;
      for (const memory of NAMES) {
        sessions[memory] = await connectMcp(running.url, TOKENS[memory]);
        clients.push(sessions[memory].client);
      }
      for (const memory of NAMES) {
        const { client } = sessions[memory];
        for (const own of WORLDS[memory]) {
          expect(searchText(await call(client, 'search_memory', { query: own })), `${memory}: ${own}`).toContain(own);
          expect((await call(client, 'get_entity', { name: own })).isError ?? false).toBe(false);
        }
        const asked = await call(client, 'query_world', { query: `What is ${WORLDS[memory][0]}?` });
        expect(JSON.stringify(asked.structuredContent), memory).toContain(WORLDS[memory][0]);
        for (const foreign of others(memory)) {
          expect(
            searchText(await call(client, 'search_memory', { query: foreign })),
            `${memory}: ${foreign}`,
          ).not.toContain(foreign);
          const entity = await call(client, 'get_entity', { name: foreign });
          expect(entity.isError, `${memory} must not open ${foreign}`).toBe(true);
          const world = await call(client, 'query_world', { query: `What is ${foreign}?` });
          const entities = (world.structuredContent as { entities?: unknown[] } | undefined)?.entities ?? [];
          expect(JSON.stringify(entities)).not.toContain(foreign);
        }
      }

      // Alice's session, used with Bob's token: refused like an unknown session (404), for every method.
      const aliceSession = sessions.alice.sessionId;
      const raw = async (token: string, method: 'POST' | 'GET' | 'DELETE'): Promise<Response> =>
        fetch(running.url, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            'mcp-session-id': aliceSession,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          ...(method === 'POST'
            ? {
                body: JSON.stringify({
                  jsonrpc: '2.0',
                  id: 99,
                  method: 'tools/call',
                  params: { name: 'get_entity', arguments: { name: 'Marigold Lighthouse' } },
                }),
              }
            : {}),
        });
      for (const method of ['POST', 'GET', 'DELETE'] as const) {
        for (const token of [TOKENS.bob, TOKENS.default]) {
          const res = await raw(token, method);
          const text = await res.text();
          expect(res.status, `${method} on alice's session with another memory's token`).toBe(404);
          expect(text).toContain('Session not found');
          expect(text).not.toContain('Marigold');
        }
      }
      // The same request with Alice's token is served (so the 404s above are the binding, not a malformed request),
      // and the refused DELETEs did not close her session.
      const own = await raw(TOKENS.alice, 'POST');
      expect(own.status).toBe(200);
      expect(await own.text()).toContain('Marigold Lighthouse');
      expect(searchText(await call(sessions.alice.client, 'search_memory', { query: 'Marigold' }))).toContain(
        'Marigold Lighthouse',
      );

      // A wrong token, or none, gets 401 whatever the session.
      for (const token of ['not-a-memory-token-0123456789', `${TOKENS.bob}x`, TOKENS.bob.slice(1)]) {
        expect((await raw(token, 'POST')).status).toBe(401);
      }
      const anonymous = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(anonymous.status).toBe(401);
      await expect(connectMcp(running.url, 'not-a-memory-token-0123456789')).rejects.toThrow();
    } finally {
      for (const client of clients) await client.close().catch(() => undefined);
      const done = await stop(running);
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toContain('3 memories (alice, bob, default)');
      expect(done.stderr).toMatch(/refused a request on a session of memory "alice" made with the token of "bob"/);
      expect(done.stderr).not.toContain(TOKENS.bob);
    }
  }, 180_000);

  it('refuses --memories with --memory, PIE_TOKEN, stdio or a file others can read, each in one sentence', async () => {
    const url = server().url;
    const refusals: { args: string[]; env?: Record<string, string>; message: string }[] = [
      {
        args: ['--db', url, '--memory', 'alice', 'serve', '--memories', tokensFile],
        message: '--memories names the memories to serve and --memory names one',
      },
      {
        args: ['--db', url, 'mcp', '--http', '--memories', tokensFile],
        env: { PIE_MCP_TOKEN: 'x'.repeat(24) },
        message: 'so PIE_MCP_TOKEN would be a second key to one of them; unset PIE_MCP_TOKEN.',
      },
      {
        args: ['--db', url, 'serve'],
        env: { PIE_MEMORIES: tokensFile, PIE_TOKEN: 'x'.repeat(24) },
        message: 'With PIE_MEMORIES each memory',
      },
      {
        args: ['--db', url, 'mcp', '--memories', tokensFile],
        message: '--memories serves several memories over HTTP, one token each; add --http',
      },
      {
        args: ['--db', join(dir, 'one.db'), 'serve', '--memories', tokensFile],
        message: 'a SQLite file holds one memory, so serve it without --memories',
      },
    ];
    for (const r of refusals) {
      const result = await pie([...r.args, '--port', '0'], r.env);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(r.message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    const open = join(dir, 'open.json');
    writeFileSync(open, JSON.stringify(TOKENS));
    chmodSync(open, 0o644);
    const exposed = await pie(['--db', url, 'serve', '--port', '0', '--memories', open]);
    expect(exposed.code).toBe(2);
    expect(exposed.stderr).toContain('can be read or changed by other accounts (mode 644)');
    expect(exposed.stderr).not.toContain(TOKENS.alice);
  }, 60_000);
});

describe('pie serve --help and pie mcp --help', () => {
  it('describe --memories', async () => {
    for (const command of ['serve', 'mcp']) {
      const help = await pie([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout.replace(/\s+/g, ' ')).toMatch(
        /--memories <file> .*serve several memories of a PostgreSQL --db/,
      );
    }
  });
});
