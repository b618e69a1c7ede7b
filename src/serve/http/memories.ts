import type { Hono } from 'hono';
import { PieError } from '../../domain/errors.js';
import { createApp } from './app.js';
import { bearerIndex, tokenDigest, type ServedMemory } from './bearer.js';
import type { HttpDeps } from './deps.js';

/**
 * The HTTP API over several memories (`pie serve --memories`): one app per memory, each built from that memory's
 * dependencies alone and guarded by that memory's token, and in front of them the bearer token of each request
 * picks the app. No code path holds two memories' dependencies at once, so an answer can only come from the memory
 * whose token the request carried.
 *
 * A request whose token is no memory's (or that has none) goes to the first app: its own check answers every /api
 * route with 401 (a header that matched no token cannot match that one either), and it serves the web UI's files,
 * which are the same for everyone and need no token, as on a single-memory server.
 */
export function createMemoriesApp(input: {
  memories: readonly ServedMemory<HttpDeps>[];
  loopbackOnly: boolean;
  webRoot: string | null;
}): Pick<Hono, 'fetch'> {
  if (input.memories.length === 0) {
    throw new PieError('INVALID_ARGUMENT', 'A server of several memories needs at least one memory.');
  }
  const apps = input.memories.map((m) =>
    createApp({
      deps: m.deps,
      token: m.token,
      tokenName: 'the token of your memory',
      loopbackOnly: input.loopbackOnly,
      webRoot: input.webRoot,
    }),
  );
  const digests = input.memories.map((m) => tokenDigest(m.token));
  return {
    fetch: (request, env, executionCtx) => {
      const index = bearerIndex(request.headers.get('authorization') ?? undefined, digests);
      const app = apps[index] ?? apps[0];
      if (app === undefined) throw new PieError('INTERNAL', 'No memory to serve.');
      return app.fetch(request, env, executionCtx);
    },
  };
}
