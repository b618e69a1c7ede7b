import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, fixtureWorld, structured, textOf } from './harness.js';

let world: Awaited<ReturnType<typeof fixtureWorld>>;

beforeAll(async () => {
  world = await fixtureWorld();
});
afterAll(() => world.cleanup());

describe('--read-only', () => {
  it('removes ingest_episode, keeps the read tools, and counts no accesses', async () => {
    const mcp = await connect({ db: world.db, readOnly: true });
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools).toHaveLength(11);
      expect(tools.map((t) => t.name)).not.toContain('ingest_episode');
      expect(tools.map((t) => t.name)).not.toContain('execute_kip');
      expect(tools.map((t) => t.name)).toContain('execute_kip_readonly');
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
      const refused = await mcp.call('ingest_episode', { content: 'Maya joined Tidepool.' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('Tool ingest_episode not found');
      const before = (await mcp.services.store.entities.findByKey('tidepool'))[0]?.accessCount;
      expect(textOf(await mcp.call('query_world', { query: 'What is Tidepool?' }))).toContain('Tidepool (project)');
      expect((await mcp.services.store.entities.findByKey('tidepool'))[0]?.accessCount).toBe(before);
      expect(mcp.services.store.info().location).toBe(world.db);
      const episodes = (await mcp.services.store.stats()).episodes;
      expect(episodes).toBe(5);
    } finally {
      await mcp.close();
    }
  });
});

describe('the token budget', () => {
  it('cuts a long answer at line boundaries with a note, and shortens the structured lists too', async () => {
    const mcp = await connect({ db: world.db, maxTokens: 200 });
    try {
      const r = await mcp.call('get_world_snapshot', { limit: 200 });
      const s = structured<{ total: number; entities: unknown[] }>(r);
      const text = textOf(r);
      const count = (t: string): number => mcp.services.tokenizer().count(t);
      expect(count(text)).toBeLessThanOrEqual(200);
      expect(s.budget.textTokens).toBe(count(text));
      expect(text.split('\n').at(-1)).toMatch(
        /^\[Cut to fit the 200-token response budget: \d+ of \d+ lines \(about \d+ tokens in all\) left out\. Pass a smaller limit or a type/,
      );
      // Every kept line is a whole line of the full answer.
      const unbounded = await connect({ db: world.db, readOnly: true });
      const full = textOf(await unbounded.call('get_world_snapshot', { limit: 200 }));
      await unbounded.close();
      for (const line of text.split('\n').slice(0, -1)) expect(full.split('\n')).toContain(line);
      expect(s.budget.truncated).toBe(true);
      expect(s.budget.note).toMatch(/lines of text left out/);
      expect(s.entities.length).toBeLessThan(s.total);
      expect(s.budget.omitted).toContainEqual(expect.objectContaining({ path: 'entities', total: s.total }));
      const { budget: _budget, ...rest } = s;
      expect(count(JSON.stringify(rest))).toBeLessThanOrEqual(200);
    } finally {
      await mcp.close();
    }
  });

  it('leaves short answers whole', async () => {
    const mcp = await connect({ db: world.db, maxTokens: 200 });
    try {
      const s = structured(await mcp.call('list_periods'));
      expect(s.budget).toMatchObject({ maxTokens: 200, truncated: false, note: null, omitted: [] });
    } finally {
      await mcp.close();
    }
  });
});
