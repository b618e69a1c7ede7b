import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, PieError } from '../../domain/errors.js';
import { bearerMatches, requireStrongToken } from '../http/bearer.js';
import type { McpDeps } from './deps.js';
import { createMcpServer } from './server.js';
import { connectMcp } from './connect.js';

export const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = 1024 * 1024;
const IDLE_SESSION_MS = 30 * 60_000;
const HANDSHAKE_MS = 60_000;
/** Sessions held at once (each is an MCP server, ~0.3 MB); past it the longest-idle one goes, or the new one waits. */
const MAX_SESSIONS = 64;
/** At the cap, a session idle this long is closed to make room for a new client. */
const EVICTABLE_IDLE_MS = 5 * 60_000;

export interface HttpServerOptions {
  deps: McpDeps;
  host: string;
  port: number;
  /** PIE_MCP_TOKEN: when set, every request needs `Authorization: Bearer <token>` (the scheme in any case). */
  token?: string | undefined;
  /** Sessions unused for this long are closed (default 30 minutes). */
  idleSessionMs?: number;
  /**
   * A session whose client never comes back after the initialize answer (no `notifications/initialized`, no other
   * request) is closed after this long (default 60 s) instead of being held for the idle timeout.
   */
  handshakeMs?: number;
  /** Sessions held at once (default 64): at the cap the session idle longest (≥ 5 minutes) is closed, else 503. */
  maxSessions?: number;
  /** How long a session must have been idle before it may be closed for a new one (default 5 minutes). */
  evictableIdleMs?: number;
}

export interface RunningHttpServer {
  url: string;
  port: number;
  sessions(): number;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastUsed: number;
  /** Closes the session unless the client completes the handshake in time; cleared once it does. */
  handshake: NodeJS.Timeout | null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Streamable HTTP on node:http, one MCP session per client (the SDK's stateful mode: a session id is issued on
 * initialize and every later request carries it). Bound to loopback unless a token is set; on loopback, Host and
 * Origin must be local too (DNS rebinding). A client that disconnects mid-call only loses its own answer.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { deps, host, token } = options;
  if (!isLoopback(host) && !token) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `--host ${host} would expose the world model beyond this machine; set PIE_MCP_TOKEN to a long random secret first (clients then send "Authorization: Bearer <token>"), or keep the default 127.0.0.1.`,
    );
  }
  const loopbackOnly = isLoopback(host);
  requireStrongToken({ host, loopback: loopbackOnly, token, env: 'PIE_MCP_TOKEN' });
  const sessions = new Map<string, Session>();
  const expected = token ? Buffer.from(token) : null;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (loopbackOnly && !localRequest(req))
      return reply(res, 403, -32000, 'Forbidden: the Host or Origin is not local.');
    cors(req, res);
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (url.pathname !== MCP_PATH) return reply(res, 404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    if (expected && !bearerMatches(header(req, 'authorization'), expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="pie"');
      return reply(res, 401, -32001, 'Unauthorized: send "Authorization: Bearer <PIE_MCP_TOKEN>".');
    }
    const id = header(req, 'mcp-session-id');
    const session = id ? sessions.get(id) : undefined;
    if (id && !session) return reply(res, 404, -32001, 'Session not found; initialize a new session.');
    if (req.method === 'POST') {
      const body = await readJson(req, res);
      if (body === undefined) return;
      if (session) {
        touch(session);
        return session.transport.handleRequest(req, res, body);
      }
      if (!isInitialize(body)) return reply(res, 400, -32000, 'Bad request: no session id; send initialize first.');
      if (!(await makeRoom())) {
        res.setHeader('Retry-After', '60');
        return reply(
          res,
          503,
          -32000,
          `Too many open sessions (${sessions.size}); close clients that are not in use, or try again in a minute.`,
        );
      }
      return openSession(req, res, body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!session) return reply(res, 400, -32000, 'Bad request: the Mcp-Session-Id header is missing.');
      touch(session);
      return session.transport.handleRequest(req, res);
    }
    res.setHeader('Allow', 'GET, POST, DELETE, OPTIONS');
    return reply(res, 405, -32000, 'Method not allowed.');
  };

  /**
   * A session lives from its initialize request on. The client's next request (normally `notifications/initialized`)
   * completes the handshake; a client that never sends one (it crashed, or only probed the server) has its session
   * closed after `handshakeMs` rather than held for the idle timeout. An initialize the transport refuses (wrong
   * Accept header, a batch of two) opens no session, and its server is closed at once.
   */
  const openSession = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const server = createMcpServer(deps);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        const handshake = setTimeout(() => {
          const s = sessions.get(sid);
          if (s) void closeSession(sid, s);
        }, options.handshakeMs ?? HANDSHAKE_MS);
        handshake.unref();
        sessions.set(sid, { transport, server, lastUsed: Date.now(), handshake });
      },
    });
    transport.onclose = () => {
      if (!transport.sessionId) return;
      const s = sessions.get(transport.sessionId);
      if (s) settle(s);
      sessions.delete(transport.sessionId);
    };
    server.server.onerror = (error) => deps.log(`MCP session error: ${errorMessage(error)}`);
    await connectMcp(server, transport);
    await transport.handleRequest(req, res, body);
    if (!transport.sessionId) {
      await server.close().catch((error: unknown) => deps.log(`closing a refused session: ${errorMessage(error)}`));
    }
  };

  /** Below the cap, or after closing the session idle longest when it has been idle long enough. */
  const makeRoom = async (): Promise<boolean> => {
    if (sessions.size < (options.maxSessions ?? MAX_SESSIONS)) return true;
    let oldest: [string, Session] | null = null;
    for (const entry of sessions) if (oldest === null || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry;
    if (oldest === null || Date.now() - oldest[1].lastUsed < (options.evictableIdleMs ?? EVICTABLE_IDLE_MS)) {
      return false;
    }
    await closeSession(...oldest);
    return true;
  };

  const settle = (s: Session): void => {
    if (s.handshake) clearTimeout(s.handshake);
    s.handshake = null;
  };
  const touch = (s: Session): void => {
    s.lastUsed = Date.now();
    settle(s);
  };

  const http: Server = createServer((req, res) => {
    req.on('error', (error) => deps.log(`request error: ${error.message}`));
    res.on('error', (error) => deps.log(`response error: ${error.message}`));
    handle(req, res).catch((error: unknown) => {
      deps.log(`HTTP request failed: ${errorMessage(error)}`);
      if (!res.headersSent) reply(res, 500, -32603, 'Internal error.');
      else if (!res.writableEnded) res.end();
    });
  });
  http.on('clientError', (_error, socket) => socket.destroy());

  const sweep = setInterval(() => {
    const cutoff = Date.now() - (options.idleSessionMs ?? IDLE_SESSION_MS);
    for (const [sid, s] of sessions) if (s.lastUsed < cutoff) void closeSession(sid, s);
  }, 60_000);
  sweep.unref();

  const closeSession = async (sid: string, s: Session): Promise<void> => {
    settle(s);
    sessions.delete(sid);
    await s.server.close().catch((error: unknown) => deps.log(`closing session ${sid}: ${errorMessage(error)}`));
  };

  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new PieError(
          'INVALID_ARGUMENT',
          error.code === 'EADDRINUSE'
            ? `Port ${options.port} on ${host} is in use; pass another --port (0 picks a free one).`
            : `Cannot listen on ${host}:${options.port} (${error.message}).`,
          { cause: error },
        ),
      ),
    );
    http.listen(options.port, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${MCP_PATH}`,
    port,
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions].map(([sid, s]) => closeSession(sid, s)));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Host (and Origin, when a browser sends one) name this machine: a web page elsewhere cannot reach the server. */
function localRequest(req: IncomingMessage): boolean {
  const host = header(req, 'host');
  if (!host || !isLoopback(hostname(`http://${host}`) ?? '')) return false;
  const origin = header(req, 'origin');
  return origin === undefined || isLoopback(hostname(origin) ?? '');
}

function hostname(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** Lets a local browser client (the MCP Inspector in direct mode) talk to the server. */
function cors(req: IncomingMessage, res: ServerResponse): void {
  const origin = header(req, 'origin');
  if (!origin) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
  res.setHeader(
    'Access-Control-Allow-Headers',
    'Content-Type, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
  );
  res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, WWW-Authenticate');
}

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

/** The parsed JSON body, or undefined after answering 413 / 400 itself. A body over the limit is drained, not kept. */
async function readJson(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const body = await new Promise<Buffer | null>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
  if (body === null) {
    reply(res, 413, -32600, `Request too large: at most ${MAX_BODY_BYTES} bytes; send less text per call.`);
    return undefined;
  }
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    reply(res, 400, -32700, 'Parse error: the body is not JSON.');
    return undefined;
  }
}

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
