import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_BY_CODE } from '../../src/serve/http/errors.js';
import { startServer } from '../../src/serve/http/server.js';
import { pie } from '../helpers/cli.js';
import { fixtureWorld, openApi } from './harness.js';

let world: Awaited<ReturnType<typeof fixtureWorld>>;

beforeAll(async () => {
  world = await fixtureWorld();
});
afterAll(() => world.cleanup());

describe('HTTP API access', () => {
  it('needs the bearer token on every API route when one is set', async () => {
    const api = await openApi({ db: world.db, token: 's3cret-token' });
    try {
      const none = await api.get<{ error: { code: string } }>('/api/periods');
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('UNAUTHORIZED');
      expect((await api.get('/api/periods', { authorization: 'Bearer wrong-token!' })).status).toBe(401);
      expect((await api.get('/api/openapi.json')).status).toBe(401);
      expect((await api.get('/api/periods', { authorization: 'Bearer s3cret-token' })).status).toBe(200);
      // The scheme name is case-insensitive (RFC 7235); the token is not.
      expect((await api.get('/api/periods', { authorization: 'bearer s3cret-token' })).status).toBe(200);
      expect((await api.get('/api/periods', { authorization: 'Bearer S3CRET-TOKEN' })).status).toBe(401);
    } finally {
      await api.close();
    }
  });

  it('refuses writes in read-only mode but still previews a sleep', async () => {
    const api = await openApi({ db: world.db, readOnly: true });
    try {
      // One status and one code for every refused write (chat statements and sleeps said UNSUPPORTED, undo READ_ONLY).
      const refusals = [
        await api.post<{ error: { code: string } }>('/api/chat', { message: 'I moved to Lisbon.' }),
        await api.post<{ error: { code: string } }>('/api/episodes', { content: 'a note' }),
        await api.post<{ error: { code: string } }>('/api/undo', { run_id: 'x' }),
        await api.post<{ error: { code: string } }>('/api/sleep', { dry_run: false }),
      ];
      for (const r of refusals) {
        expect(r.status).toBe(403);
        expect(r.body.error.code).toBe('READ_ONLY');
      }
      expect((await api.post('/api/sleep', { dry_run: true })).status).toBe(200);
      const asked = await api.post<{ route: string; memory: string | null }>('/api/chat', {
        message: 'What is Tidepool?',
      });
      expect(asked.status).toBe(200);
      // No model: the answer is what the memory holds (entity cards and sources), not only the raw prompt.
      expect(asked.body.route).toBe('question');
      expect(asked.body.memory).toMatch(/Tidepool \(project\)/);
      // A greeting is answered and stored nowhere, even read-only.
      const hello = await api.post<{ route: string; text: string }>('/api/chat', { message: 'Hi!' });
      expect(hello.body).toEqual({
        route: 'small-talk',
        text: expect.stringContaining('Nothing was stored') as unknown,
      });
    } finally {
      await api.close();
    }
  });

  it('serves the built UI with a strict CSP and falls back to index.html for client routes', async () => {
    const root = join(world.dir, 'web');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>PIE</title>');
    writeFileSync(join(root, 'assets', 'app-abc.js'), 'console.log(1)');
    const api = await openApi({ db: world.db, webRoot: root });
    try {
      const index = await api.app.request('/');
      expect(index.status).toBe(200);
      expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await (await api.app.request('/entity/Tidepool')).text()).toContain('<title>PIE</title>');
      const js = await api.app.request('/assets/app-abc.js');
      expect(js.headers.get('content-type')).toContain('javascript');
      expect(js.headers.get('cache-control')).toContain('immutable');
      expect((await api.app.request('/assets/missing.js')).status).toBe(404);
      expect((await api.app.request('/..%2f..%2fetc%2fpasswd')).status).toBe(404);
    } finally {
      await api.close();
    }
  });

  it('maps every error code to a status', () => {
    expect(STATUS_BY_CODE.NOT_FOUND).toBe(404);
    expect(STATUS_BY_CODE.INVALID_ARGUMENT).toBe(400);
    expect(STATUS_BY_CODE.CONFLICT).toBe(409);
    expect(STATUS_BY_CODE.DB_LOCKED).toBe(503);
    expect(STATUS_BY_CODE.INTERNAL).toBe(500);
  });

  it('refuses a chunked body past the limit while it streams in (413), before the rest is sent', async () => {
    const api = await openApi({ db: world.db });
    const server = await startServer({ deps: api.deps, host: '127.0.0.1', port: 0, webRoot: null });
    try {
      let sent = 0;
      let answered = false;
      const answer = await new Promise<{ status: number; body: string; sentBeforeAnswer: number }>(
        (resolve, reject) => {
          const req = request(`${server.url}api/chat`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          });
          req.on('response', (r) => {
            const sentBeforeAnswer = sent;
            let body = '';
            r.on('data', (d: Buffer) => (body += d.toString()));
            r.on('end', () => resolve({ status: r.statusCode ?? 0, body, sentBeforeAnswer }));
            answered = true;
          });
          req.on('error', (e) => (sent >= 20_000_000 ? undefined : reject(e)));
          // Up to 20 MB in 64 KB chunks, pausing so the server can answer in between; no Content-Length.
          const chunk = Buffer.alloc(65_536, 'a');
          const pump = (): void => {
            if (answered || sent >= 20_000_000) return void req.end();
            sent += chunk.length;
            if (req.write(chunk)) setImmediate(pump);
            else req.once('drain', pump);
          };
          req.write('{"message":"');
          pump();
        },
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'TOO_LARGE' } });
      expect(answer.sentBeforeAnswer).toBeLessThan(20_000_000);
    } finally {
      await server.close();
      await api.close();
    }
  });

  it('compresses JSON for a client that accepts gzip, and not for one that does not', async () => {
    const api = await openApi({ db: world.db });
    try {
      const big = await api.app.request('/api/snapshot?limit=50', { headers: { 'accept-encoding': 'gzip' } });
      expect(big.status).toBe(200);
      expect(big.headers.get('content-encoding')).toBe('gzip');
      const raw = Buffer.from(await big.arrayBuffer());
      const json = JSON.parse(gunzipSync(raw).toString('utf8')) as { text: string };
      expect(json.text.length).toBeGreaterThan(1024);
      expect(raw.length).toBeLessThan(gunzipSync(raw).length);
      const plain = await api.app.request('/api/snapshot?limit=50');
      expect(plain.headers.get('content-encoding')).toBeNull();
    } finally {
      await api.close();
    }
  });

  it('says why a streamed body was refused', async () => {
    const api = await openApi({ db: world.db });
    try {
      const chunk = new TextEncoder().encode('a'.repeat(65_536));
      let pulled = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          if (pulled > 300) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const res = await api.app.request('/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        error: { code: 'TOO_LARGE', message: 'The request body is over 1,000,000 bytes; send less.', suggestions: [] },
      });
      // It stopped reading at the limit: about 16 of the 300 chunks, not all of them.
      expect(pulled).toBeLessThan(30);
    } finally {
      await api.close();
    }
  });

  it('refuses to listen beyond loopback without a token, and serves over a socket on loopback', async () => {
    const api = await openApi({ db: world.db });
    try {
      await expect(startServer({ deps: api.deps, host: '0.0.0.0', port: 0, webRoot: null })).rejects.toThrow(
        /PIE_TOKEN/,
      );
      const server = await startServer({ deps: api.deps, host: '127.0.0.1', port: 0, webRoot: null });
      try {
        const res = await fetch(`${server.url}api/periods`);
        expect(res.status).toBe(200);
        // fetch cannot set Host; a raw request can, as a DNS-rebinding page's browser would.
        const foreign = await new Promise<number>((resolve, reject) => {
          const req = request(`${server.url}api/periods`, { headers: { host: 'attacker.example' } }, (r) => {
            r.resume();
            resolve(r.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end();
        });
        expect(foreign).toBe(403);
      } finally {
        await server.close();
      }
    } finally {
      await api.close();
    }
  });

  it('pie serve refuses another host without PIE_TOKEN, and a database that does not exist', async () => {
    const exposed = await pie(['--db', world.db, 'serve', '--host', '0.0.0.0', '--port', '0']);
    expect(exposed.code).not.toBe(0);
    expect(exposed.stderr).toContain('PIE_TOKEN');
    // A token a person could guess is no guard for the network.
    const weak = await pie(['--db', world.db, 'serve', '--host', '0.0.0.0', '--port', '0'], { PIE_TOKEN: 'x' });
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain(
      'PIE_TOKEN has 1 characters, too short to guard --host 0.0.0.0; use a random secret of at least 16 characters',
    );
    const missing = await pie(['--db', join(world.dir, 'none.db'), 'serve', '--port', '0']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('pie ingest');
    const port = await pie(['--db', world.db, 'serve', '--port', 'x']);
    expect(port.stderr).toContain('--port');
  });
});
