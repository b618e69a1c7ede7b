import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connected } from '../mcp/harness.js';
import { pie, pieJson, SAMPLE, tempDir } from '../helpers/cli.js';

/**
 * The context budget across the ways a question comes in (issue "the context must beat naive RAG"): the CLI's
 * --context-tokens, MCP query_world's max_tokens; on the bundled sample ingested with the offline rules, so the
 * evidence is real conversation turns.
 */
const G = ['--tz', 'UTC', '--now', '2025-11-01'];
let dir: string;
let db: string;
let cleanup: () => void;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'pie.db');
  const r = await pie(['--db', db, ...G, 'ingest', SAMPLE, '--extractor', 'offline']);
  if (r.code !== 0) throw new Error(r.stderr);
}, 120_000);
afterAll(() => cleanup());

interface AskJson {
  context: string;
  contextTokens: number;
  maxContextTokens: number;
}

describe('pie ask --context-tokens', () => {
  it.each([300, 1500, 3000])('fills a budget of %i tokens with evidence and never passes it', async (budget) => {
    const j = await pieJson<AskJson>([
      '--db',
      db,
      ...G,
      'ask',
      'What did I decide about the knowledge graph database for the project?',
      '--context-only',
      '--context-tokens',
      String(budget),
    ]);
    expect(j.maxContextTokens).toBe(budget);
    expect(j.contextTokens).toBeLessThanOrEqual(budget);
    // Within a short line of it: the evidence is recounted as written and the room that frees is taken (before, a
    // 3,000-token budget stopped at 2,906; what is left is less than the next turn with its session heading needs).
    expect(j.contextTokens).toBeGreaterThanOrEqual(budget - 50);
    expect(j.context).toContain('From the conversations');
  });

  it('when the matching conversations run out, fills with the latest conversations (30 at most), within the budget', async () => {
    // The sample has 150 turns in 49 conversations; the question's words hold a third of them.
    const j = await pieJson<AskJson>([
      '--db',
      db,
      ...G,
      'ask',
      'What did I decide about the knowledge graph database for the project?',
      '--context-only',
      '--context-tokens',
      '30000',
    ]);
    expect(j.contextTokens).toBeLessThanOrEqual(30_000);
    expect(j.context).toContain('Knowledge graph vs vector memory');
    const titles = [...j.context.matchAll(/^ {2}• “([^”]+)”/gm)].map((m) => m[1]);
    expect(titles.length).toBeGreaterThan(20);
    expect(titles.length).toBeLessThanOrEqual(49);
  });

  it('defaults to 4,000 tokens', async () => {
    const j = await pieJson<AskJson>(['--db', db, ...G, 'ask', 'What tools did I use?', '--context-only']);
    expect(j.maxContextTokens).toBe(4000);
    expect(j.contextTokens).toBeLessThanOrEqual(4000);
  });

  it.each([
    ['50', /A context budget of 50 tokens is out of range; give a whole number from 200 to 32000/],
    ['lots', /--context-tokens must be a positive whole number/],
  ])('refuses --context-tokens %s in one sentence (exit 2)', async (value, message) => {
    const r = await pie(['--db', db, ...G, 'ask', 'anything', '--context-tokens', value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('MCP query_world max_tokens', () => {
  let mcp: Connected;
  beforeAll(async () => {
    mcp = await connect({ db, maxTokens: 3000 });
  });
  afterAll(async () => mcp.close());

  it('compiles within max_tokens, and within the server budget when max_tokens asks for more', async () => {
    const small = await mcp.call('query_world', { query: 'What tools did I use?', max_tokens: 600 });
    const s = small.structuredContent as { contextTokens: number; budget: { truncated: boolean } };
    expect(s.contextTokens).toBeLessThanOrEqual(600);
    expect(s.contextTokens).toBeGreaterThan(400);
    expect(s.budget.truncated).toBe(false);
    const big = await mcp.call('query_world', { query: 'What tools did I use?', max_tokens: 20_000 });
    const b = big.structuredContent as { contextTokens: number; budget: { truncated: boolean } };
    expect(b.contextTokens).toBeLessThanOrEqual(3000);
    expect(b.budget.truncated).toBe(false);
  });

  it('a max_tokens out of range is a tool error naming the bound', async () => {
    const r = await mcp.call('query_world', { query: 'What tools did I use?', max_tokens: 10 });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toMatch(/max_tokens must be at least 200/);
  });
});
