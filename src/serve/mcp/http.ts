import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { errorMessage, PieError } from '../../domain/errors.js';
import { bearerIndex, bearerMatches, requireStrongToken, tokenDigest, type ServedMemory } from '../http/bearer.js';
import type { McpDeps } from './deps.js';
import { createMcpServer } from './server.js';
import { connectMcp } from './connect.js';
import { cors, header, isInitialize, isLoopback, localRequest, readJson, reply } from './http-util.js';

export { isLoopback } from './http-util.js';

export const MCP_PATH = '/mcp';
const IDLE_SESSION_MS = 30 * 60_000;
const HANDSHAKE_MS = 60_000;
/** Sessions held at once (each is an MCP server, ~0.3 MB); past it the longest-idle one goes, or the new one waits. */
const MAX_SESSIONS = 64;
/** At the cap, a session idle this long is closed to make room for a new client. */
const EVICTABLE_IDLE_MS = 5 * 60_000;

interface HttpServerCommon {
  host: string;
  port: number;
  /** Sessions unused for this long are closed (default 30 minutes). */
  idleSessionMs?: number;
  /**
   * A session whose client never comes back after the initialize answer (no `notifications/initialized`, no other
   * request) is closed after this long (default 60 s) instead of being held for the idle timeout.
   */
  handshakeMs?: number;
  /**
   * Sessions held at once (default 64), per memory: at the cap the session of that memory idle longest (≥ 5 minutes)
   * is closed, else 503.
   */
  maxSessions?: number;
  /** How long a session must have been idle before it may be closed for a new one (default 5 minutes). */
  evictableIdleMs?: number;
}

export type HttpServerOptions = HttpServerCommon &
  (
    | {
        deps: McpDeps;
        /** PIE_MCP_TOKEN: when set, every request needs `Authorization: Bearer <token>` (the scheme in any case). */
        token?: string | undefined;
      }
    | {
        /** `--memories`: several memories, each with its own token; the token of each request selects the memory. */
        memories: readonly ServedMemory<McpDeps>[];
      }
  );

export interface RunningHttpServer {
  url: string;
  port: number;
  sessions(): number;
  close(): Promise<void>;
}

/** A memory this server answers for: its name and dependencies. */
interface Tenant {
  name: string;
  deps: McpDeps;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** The memory of the token that initialized the session: the only one it ever answers from. */
  tenant: Tenant;
  lastUsed: number;
  /** Closes the session unless the client completes the handshake in time; cleared once it does. */
  handshake: NodeJS.Timeout | null;
}

/**
 * Streamable HTTP on node:http, one MCP session per client (the SDK's stateful mode: a session id is issued on
 * initialize and every later request carries it). Bound to loopback unless a token is set; on loopback, Host and
 * Origin must be local too (DNS rebinding). A client that disconnects mid-call only loses its own answer.
 *
 * With `memories`, the token of each request selects the memory, a session is bound to the memory of the token that
 * opened it, and a request on that session with another memory's token is answered 404, exactly as an unknown
 * session is (the other memory's client learns nothing about it, and nothing is served from either memory).
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { host } = options;
  const loopbackOnly = isLoopback(host);
  const tenants: readonly Tenant[] =
    'memories' in options
      ? options.memories.map((m) => ({ name: m.name, deps: m.deps }))
      : [{ name: '', deps: options.deps }];
  const authenticate = authenticator(options, tenants);
  const log = tenants[0]?.deps.log ?? (() => undefined);
  const sessions = new Map<string, Session>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (loopbackOnly && !localRequest(req))
      return reply(res, 403, -32000, 'Forbidden: the Host or Origin is not local.');
    cors(req, res);
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (url.pathname !== MCP_PATH) return reply(res, 404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    const tenant = authenticate(header(req, 'authorization'));
    if (tenant === null) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="pie"');
      const name = 'memories' in options ? 'the token of your memory' : 'PIE_MCP_TOKEN';
      return reply(res, 401, -32001, `Unauthorized: send "Authorization: Bearer <${name}>".`);
    }
    const id = header(req, 'mcp-session-id');
    const found = id ? sessions.get(id) : undefined;
    if (found && found.tenant !== tenant) {
      log(`refused a request on a session of memory "${found.tenant.name}" made with the token of "${tenant.name}".`);
    }
    const session = found?.tenant === tenant ? found : undefined;
    if (id && !session) return reply(res, 404, -32001, 'Session not found; initialize a new session.');
    if (req.method === 'POST') {
      const body = await readJson(req, res);
      if (body === undefined) return;
      if (session) {
        touch(session);
        return session.transport.handleRequest(req, res, body);
      }
      if (!isInitialize(body)) return reply(res, 400, -32000, 'Bad request: no session id; send initialize first.');
      if (!(await makeRoom(tenant))) {
        res.setHeader('Retry-After', '60');
        return reply(
          res,
          503,
          -32000,
          `Too many open sessions (${sessionsOf(tenant).length}); close clients that are not in use, or try again in a minute.`,
        );
      }
      return openSession(req, res, body, tenant);
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
  const openSession = async (
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    tenant: Tenant,
  ): Promise<void> => {
    const { deps } = tenant;
    const server = createMcpServer(deps);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        const handshake = setTimeout(() => {
          const s = sessions.get(sid);
          if (s) void closeSession(sid, s);
        }, options.handshakeMs ?? HANDSHAKE_MS);
        handshake.unref();
        sessions.set(sid, { transport, server, tenant, lastUsed: Date.now(), handshake });
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

  const sessionsOf = (tenant: Tenant): [string, Session][] => [...sessions].filter(([, s]) => s.tenant === tenant);

  /**
   * Below the memory's cap, or after closing the memory's session idle longest when it has been idle long enough.
   * Counted per memory, so the clients of one memory cannot crowd out another's.
   */
  const makeRoom = async (tenant: Tenant): Promise<boolean> => {
    const own = sessionsOf(tenant);
    if (own.length < (options.maxSessions ?? MAX_SESSIONS)) return true;
    let oldest: [string, Session] | null = null;
    for (const entry of own) if (oldest === null || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry;
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
    req.on('error', (error) => log(`request error: ${error.message}`));
    res.on('error', (error) => log(`response error: ${error.message}`));
    handle(req, res).catch((error: unknown) => {
      log(`HTTP request failed: ${errorMessage(error)}`);
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
    await s.server
      .close()
      .catch((error: unknown) => s.tenant.deps.log(`closing session ${sid}: ${errorMessage(error)}`));
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

/**
 * Who a request is, from its Authorization header: the memory its token selects, or null (answered 401). One memory
 * without a token (loopback) lets every request in; with `memories`, every token is compared (see bearerIndex).
 */
function authenticator(
  options: HttpServerOptions,
  tenants: readonly Tenant[],
): (authorization: string | undefined) => Tenant | null {
  const { host } = options;
  if ('memories' in options) {
    for (const m of options.memories) {
      requireStrongToken({ host, loopback: false, token: m.token, env: `The token of "${m.name}"` });
    }
    const digests = options.memories.map((m) => tokenDigest(m.token));
    return (authorization) => tenants[bearerIndex(authorization, digests)] ?? null;
  }
  const { token } = options;
  if (!isLoopback(host) && !token) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `--host ${host} would expose the world model beyond this machine; set PIE_MCP_TOKEN to a long random secret first (clients then send "Authorization: Bearer <token>"), or keep the default 127.0.0.1.`,
    );
  }
  requireStrongToken({ host, loopback: isLoopback(host), token, env: 'PIE_MCP_TOKEN' });
  const only = tenants[0] ?? null;
  if (!token) return () => only;
  const expected = Buffer.from(token);
  return (authorization) => (bearerMatches(authorization, expected) ? only : null);
}
