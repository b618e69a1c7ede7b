import { afterEach, describe, expect, it } from 'vitest';
import { PLAN_AHEAD_EVERY_MS } from '../../src/serve/plan-ahead/keep-ready.js';
import { startServeChild, type ServerChild } from '../helpers/server-child.js';
import { fixtureWorld, G } from '../mcp/harness.js';

/**
 * `pie serve` keeps a full sleep's preview planned in a worker thread (the real thread, started from the sources
 * through tsx as a user's `npx tsx` would), and `--no-plan-ahead` turns it off.
 */
let world: Awaited<ReturnType<typeof fixtureWorld>> | undefined;
let server: ServerChild | undefined;
afterEach(async () => {
  server?.child.kill('SIGTERM');
  await server?.result;
  world?.cleanup();
  server = undefined;
  world = undefined;
});

interface Kept {
  kept: boolean;
  now: string | null;
  previewId: string | null;
}

const get = async (path: string): Promise<Kept> => {
  const res = await fetch(new URL(path, server?.url));
  return (await res.json()) as Kept;
};

describe('pie serve plans the sleep ahead', () => {
  it(
    'keeps the preview a planning on request makes at the same instant; the next preview shows it',
    { timeout: 120_000 },
    async () => {
      world = await fixtureWorld();
      server = await startServeChild(['--db', world.db, ...G]);
      let kept: Kept = { kept: false, now: null, previewId: null };
      for (let i = 0; i < 600 && !kept.kept; i += 1) {
        await new Promise((r) => setTimeout(r, 100));
        kept = await get('api/sleep/kept');
      }
      expect(kept.kept).toBe(true);
      const preview = await fetch(new URL('api/sleep', server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scope: 'full', dry_run: true }),
      });
      expect(await preview.json()).toMatchObject({ kept: true, previewId: kept.previewId });
      // Planned again here, in the server's thread, at the same fixed instant: the thread planned the same plan.
      const again = await fetch(new URL('api/sleep/preview', server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scope: 'full', replan: true }),
      });
      const lines = (await again.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines[0]).toMatchObject({ type: 'start', kept: false });
      expect(lines.at(-1)).toMatchObject({ type: 'done', previewId: kept.previewId });
    },
  );

  it('with --no-plan-ahead keeps nothing until a preview is asked for', async () => {
    world = await fixtureWorld();
    server = await startServeChild(['--db', world.db, ...G], ['--no-plan-ahead']);
    await new Promise((r) => setTimeout(r, PLAN_AHEAD_EVERY_MS * 2.5));
    expect((await get('api/sleep/kept')).kept).toBe(false);
  });
});
