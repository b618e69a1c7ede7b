import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';
import { connect, fixtureWorld, G, structured, textOf, type Connected } from './harness.js';

let world: Awaited<ReturnType<typeof fixtureWorld>>;
let mcp: Connected;
let modelCli: string;

interface PyramidOut {
  model: { name: string; description: string; isBase: boolean };
  tiers: {
    tier: number;
    spanDays: number;
    summaries: { id: string; text: string; method: string; sources: number }[];
  }[];
}

beforeAll(async () => {
  world = await fixtureWorld();
  const summarized = await pie(['--db', world.db, ...G, 'summarize', '--no-llm']);
  if (summarized.code !== 0) throw new Error(summarized.stderr);
  modelCli = (await pie(['--db', world.db, ...G, 'model', 'tidepool'])).stdout.trimEnd();
  mcp = await connect({ db: world.db });
}, 60_000);
afterAll(async () => {
  await mcp.close();
  world.cleanup();
});

describe('get_pyramid', () => {
  it('returns the pyramid of a discovered model as text (as pie model prints it) and structured content', async () => {
    const r = await mcp.call('get_pyramid', { model: 'tidepool' });
    const s = structured<PyramidOut>(r);
    expect(textOf(r).startsWith(`${modelCli}\n\n(Pyramid memory: the latest 3 summaries of each tier.`)).toBe(true);
    expect(s.model).toMatchObject({ name: 'tidepool', isBase: false });
    expect(s.tiers.length).toBeGreaterThan(0);
    expect(s.tiers.map((t) => t.tier)).toEqual([...s.tiers.map((t) => t.tier)].sort((a, b) => b - a));
    expect(s.tiers.at(-1)?.tier).toBe(0);
    for (const t of s.tiers) {
      expect(t.spanDays).toBe(3 ** t.tier);
      expect(t.summaries.length).toBeGreaterThan(0);
      expect(t.summaries.length).toBeLessThanOrEqual(3);
      for (const summary of t.summaries) {
        expect(summary.method).toBe('deterministic');
        expect(summary.sources).toBeGreaterThan(0);
        expect(summary.text).toMatch(/^\[\d{1,2}\] /);
      }
    }
    // The fixture's Tidepool pivot is one of its observations, so some summary carries it.
    expect(s.tiers.flatMap((t) => t.summaries).some((x) => x.text.includes('tide alerts'))).toBe(true);
    expect(s.budget).toMatchObject({ maxTokens: 4000, truncated: false, note: null });
  });

  it('accepts a display name ("Tidepool" → tidepool) and says when a model has no summaries yet', async () => {
    expect(structured<PyramidOut>(await mcp.call('get_pyramid', { model: 'Tidepool' })).model.name).toBe('tidepool');
    const self = await mcp.call('get_pyramid', { model: 'self' });
    expect(structured<PyramidOut>(self).tiers).toEqual([]);
    expect(textOf(self)).toBe('# self\n\nThe model "self" has no summaries yet; they are built by pie summarize.');
  });

  it('fails on an unknown model with the closest names and the known ones', async () => {
    const r = await mcp.call('get_pyramid', { model: 'tidepol' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'No mental model is called "tidepol". The closest are "tidepool". Known models: self, system, tidepool, user; ' +
        'call get_pyramid again with one of them ("user" is the person).',
    );
    expect(r._meta?.['pie/error']).toEqual({ code: 'NOT_FOUND', suggestions: ['tidepool'] });
    const far = await mcp.call('get_pyramid', { model: 'quetzalcoatl' });
    expect(textOf(far)).toBe(
      'No mental model is called "quetzalcoatl". Known models: self, system, tidepool, user; call get_pyramid again with one of them ("user" is the person).',
    );
    const empty = await mcp.call('get_pyramid', { model: '  ' });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toContain('The model name is empty');
  });

  it('says how to build models when there are none', async () => {
    const { dir, cleanup } = tempDir('pie-mcp-pyr-');
    const db = join(dir, 'pie.db');
    try {
      expect((await pie(['--db', db, ...G, 'observe', 'I like tea'])).code).toBe(0);
      const bare = await connect({ db });
      try {
        const r = await bare.call('get_pyramid', { model: 'user' });
        expect(r.isError).toBe(true);
        expect(textOf(r)).toBe(
          'No mental model is called "user". PIE has no mental models yet: the user builds them with pie summarize; use query_world meanwhile.',
        );
      } finally {
        await bare.close();
      }
    } finally {
      cleanup();
    }
  });

  it('holds a long pyramid to the token budget', async () => {
    const small = await connect({ db: world.db, maxTokens: 200 });
    try {
      const s = structured<PyramidOut>(await small.call('get_pyramid', { model: 'user' }));
      expect(s.budget.truncated).toBe(true);
      expect(s.budget.textTokens).toBeLessThanOrEqual(200);
    } finally {
      await small.close();
    }
  });
});
