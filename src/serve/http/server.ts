import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { PieError } from '../../domain/errors.js';
import { createApp } from './app.js';
import { requireStrongToken, type ServedMemory } from './bearer.js';
import type { HttpDeps } from './deps.js';
import { createMemoriesApp } from './memories.js';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Listens on host:port. Loopback needs no token (and only loopback Host headers are answered); any other address
 * is refused unless a token is given, which every /api request must then carry. With `memories`, each memory has
 * its own token and the token of each request selects the memory (see memories.ts), on any address.
 */
export async function startServer(
  input: { host: string; port: number; webRoot: string | null } & (
    { deps: HttpDeps; token?: string | undefined } | { memories: readonly ServedMemory<HttpDeps>[] }
  ),
): Promise<RunningServer> {
  const loopback = isLoopback(input.host);
  let app: Pick<Hono, 'fetch'>;
  if ('memories' in input) {
    for (const m of input.memories) {
      requireStrongToken({ host: input.host, loopback: false, token: m.token, env: `The token of "${m.name}"` });
    }
    app = createMemoriesApp({ memories: input.memories, loopbackOnly: loopback, webRoot: input.webRoot });
  } else {
    if (!loopback && !input.token) {
      throw new PieError(
        'INVALID_ARGUMENT',
        `Serving on ${input.host} exposes your memory to the network; set PIE_TOKEN (a long random secret) to require it on every request, or leave --host at 127.0.0.1.`,
      );
    }
    requireStrongToken({ host: input.host, loopback, token: input.token, env: 'PIE_TOKEN' });
    app = createApp({ deps: input.deps, token: input.token, loopbackOnly: loopback, webRoot: input.webRoot });
  }
  const server = createAdaptorServer({ fetch: app.fetch });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void =>
      reject(
        error.code === 'EADDRINUSE'
          ? new PieError(
              'INVALID_ARGUMENT',
              `Port ${input.port} on ${input.host} is in use; pass another --port (0 picks a free one).`,
              { cause: error },
            )
          : new PieError('INTERNAL', `Cannot listen on ${input.host}:${input.port}: ${error.message}`, {
              cause: error,
            }),
      );
    server.once('error', onError);
    server.listen(input.port, input.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostText = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostText}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
