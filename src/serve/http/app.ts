import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { PieError, isPieError } from '../../domain/errors.js';
import { bearerMatches } from './bearer.js';
import type { HttpDeps } from './deps.js';
import { errorResponse, plainError } from './errors.js';
import { openApiDocument } from './openapi.js';
import { readOnlyError, validate, type Route } from './route.js';
import { chatRoutes } from './routes/chat.js';
import { entityRoutes } from './routes/entities.js';
import { graphRoutes } from './routes/graph.js';
import { inboxRoutes } from './routes/inbox.js';
import { maintenanceRoutes } from './routes/maintenance.js';
import { backupResponse, runRoutes } from './routes/runs.js';
import { searchRoutes } from './routes/search.js';
import { sleepPreviewRoutes } from './routes/sleep-preview.js';
import { timelineRoutes } from './routes/timeline.js';
import { worldRoutes } from './routes/world.js';
import { readStatic } from './static.js';

export const ROUTES: readonly Route[] = [
  ...searchRoutes,
  ...entityRoutes,
  ...graphRoutes,
  ...worldRoutes,
  ...chatRoutes,
  ...maintenanceRoutes,
  ...sleepPreviewRoutes,
  ...runRoutes,
  ...inboxRoutes,
  ...timelineRoutes,
];

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const MAX_BODY_BYTES = 1_000_000;

/** No external origin anywhere: scripts, styles, fonts and data come from this server only. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

export interface AppOptions {
  deps: HttpDeps;
  /** When set, every /api request needs `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** What the 401 answer calls the token (default PIE_TOKEN). */
  tokenName?: string;
  /**
   * Accept only loopback Host headers (the default for a loopback server, against DNS rebinding). A server bound
   * elsewhere is protected by its token instead.
   */
  loopbackOnly?: boolean;
  /** The built web UI; null serves the API alone. */
  webRoot?: string | null;
}

/** The HTTP API (and the web UI when built), from injected dependencies: tests call `app.request()` on it. */
export function createApp(options: AppOptions): Hono {
  const { deps } = options;
  const app = new Hono();
  const token = options.token ? Buffer.from(options.token) : null;

  app.onError((error, c) => {
    const { status, body } = errorResponse(error, deps.log);
    // Every refused write reads the same, whichever route refused it: 403 READ_ONLY.
    if (isPieError(error) && error.details?.readOnly === true) {
      return c.json(plainError('READ_ONLY', body.error.message), 403);
    }
    return c.json(body, status);
  });

  app.use('*', async (c, next) => {
    if (options.loopbackOnly && !LOOPBACK_HOSTS.has(new URL(c.req.url).hostname)) {
      return c.json(plainError('FORBIDDEN_HOST', 'This server answers only on 127.0.0.1 / localhost.'), 403);
    }
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
  });

  app.use('/api/*', async (c, next) => {
    const origin = c.req.header('origin');
    if (origin && c.req.method !== 'GET' && origin !== new URL(c.req.url).origin) {
      return c.json(plainError('FORBIDDEN_ORIGIN', `Requests from ${origin} are not accepted.`), 403);
    }
    if (token && !bearerMatches(c.req.header('authorization'), token)) {
      c.header('WWW-Authenticate', 'Bearer');
      return c.json(
        plainError(
          'UNAUTHORIZED',
          `This server needs "Authorization: Bearer <${options.tokenName ?? 'PIE_TOKEN'}>" on every API request.`,
        ),
        401,
      );
    }
    await next();
  });

  // JSON answers travel gzip- or deflate-compressed when the client accepts it (a snapshot or a page of entities
  // shrinks several times); answers whose size is known and under 1 KB, and downloads that are already compressed
  // (backups), are left as they are.
  app.use('/api/*', compress({ threshold: 1024 }));

  // The limit is counted while the body streams in (a chunked body has no Content-Length to check first), so a
  // client cannot make the server hold more than this before it is refused.
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) =>
        c.json(
          plainError(
            'TOO_LARGE',
            `The request body is over ${MAX_BODY_BYTES.toLocaleString('en-US')} bytes; send less.`,
          ),
          413,
        ),
    }),
  );

  app.get('/api/openapi.json', (c) => c.json(openApiDocument({ routes: ROUTES, version: deps.version })));

  for (const route of ROUTES) {
    const path = route.path.replace(/\{(\w+)\}/g, ':$1');
    app.on(route.method.toUpperCase(), path, async (c) => {
      if (route.write && deps.readOnly) {
        throw readOnlyError();
      }
      const query = validate(route.query ?? emptyObject, c.req.query(), 'query');
      const body = route.method === 'post' ? validate(route.body ?? emptyObject, await jsonBody(c), 'body') : {};
      const answer = await route.handler({ query, body, params: c.req.param(), deps });
      // A streamed answer (route.ndjson) is its own Response; every other answer is JSON.
      return answer instanceof Response ? answer : c.json(answer as object);
    });
  }

  app.get('/api/backup', () => backupResponse(deps));

  app.all('/api/*', (c) => c.json(plainError('NOT_FOUND', `No API route ${c.req.method} ${c.req.path}.`), 404));

  const webRoot = options.webRoot ?? null;
  app.get('*', async (c) => {
    if (webRoot === null) {
      return c.text('The web UI is not built; run "npm run build" (the API is at /api/openapi.json).', 404);
    }
    const file = await readStatic(webRoot, c.req.path);
    if (file === null) return c.text('Not found', 404);
    c.header('Content-Type', file.type);
    c.header('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    c.header('Content-Security-Policy', CSP);
    return c.body(file.body as Uint8Array<ArrayBuffer>);
  });

  return app;
}

const emptyObject = z.object({});

async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new PieError('INVALID_ARGUMENT', 'The request body is not valid JSON.', { cause });
  }
}
