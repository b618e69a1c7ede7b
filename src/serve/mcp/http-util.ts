import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/** The request plumbing of the MCP HTTP server (http.ts): headers, the local-origin check, CORS, the JSON body. */

const MAX_BODY_BYTES = 1024 * 1024;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Host (and Origin, when a browser sends one) name this machine: a web page elsewhere cannot reach the server. */
export function localRequest(req: IncomingMessage): boolean {
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
export function cors(req: IncomingMessage, res: ServerResponse): void {
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

export function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

/** The parsed JSON body, or undefined after answering 413 / 400 itself. A body over the limit is drained, not kept. */
export async function readJson(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
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

export function reply(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
