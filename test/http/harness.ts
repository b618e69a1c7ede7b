import type { Hono } from 'hono';
import { afterEach, beforeEach } from 'vitest';
import { compose, type Services } from '../../src/compose.js';
import { loadConfig } from '../../src/config/config.js';
import { createHttpDeps } from '../../src/serve/cli/commands/serve.js';
import { createApp } from '../../src/serve/http/app.js';
import type { HttpDeps } from '../../src/serve/http/deps.js';
import { fixtureWorld, NOW } from '../mcp/harness.js';

export { fixtureWorld, NOW } from '../mcp/harness.js';

export interface Api {
  app: Hono;
  deps: HttpDeps;
  services: Services;
  logs: string[];
  get<T = Record<string, unknown>>(
    path: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: T }>;
  post<T = Record<string, unknown>>(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/** The app over `db`, wired like `pie serve`, called through `app.request()` (no socket). */
export async function openApi(input: {
  db: string;
  readOnly?: boolean;
  token?: string;
  env?: Record<string, string>;
  webRoot?: string | null;
}): Promise<Api> {
  const env = { PIE_TZ: 'UTC', ...input.env };
  const config = loadConfig({ flags: { db: input.db, now: NOW, tz: 'UTC' }, env });
  const services = await compose({ config, env, readonly: input.readOnly ?? false });
  const logs: string[] = [];
  const deps = createHttpDeps({ services, tz: 'UTC', readOnly: input.readOnly ?? false, log: (m) => logs.push(m) });
  const app = createApp({ deps, token: input.token, loopbackOnly: true, webRoot: input.webRoot ?? null });
  const call = async <T>(path: string, init: RequestInit): Promise<{ status: number; body: T }> => {
    const res = await app.request(path, init);
    const text = await res.text();
    return { status: res.status, body: (text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text) as T };
  };
  return {
    app,
    deps,
    services,
    logs,
    get: (path, headers = {}) => call(path, { headers }),
    post: (path, body, headers = {}) =>
      call(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: () => services.close(),
  };
}

/**
 * A fresh fixture world and its API for every test of the calling file (vitest hooks registered here): read
 * `fx.world` and `fx.api` inside the tests; a test may replace `fx.api` (it is closed after the test either way).
 */
export function apiPerTest(): { world: Awaited<ReturnType<typeof fixtureWorld>>; api: Api } {
  const fx = {} as { world: Awaited<ReturnType<typeof fixtureWorld>>; api: Api };
  beforeEach(async () => {
    fx.world = await fixtureWorld();
    fx.api = await openApi({ db: fx.world.db });
  });
  afterEach(async () => {
    await fx.api.close();
    fx.world.cleanup();
  });
  return fx;
}

/** POST /api/sleep/preview through the app: the answer, its text and its JSON lines in the order they came. */
export async function previewLines<L = Record<string, unknown>>(
  api: Api,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ res: Response; text: string; lines: L[] }> {
  const res = await api.app.request('/api/sleep/preview', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const lines = text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as L);
  return { res, text, lines };
}
