import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, fixtureWorld, structured, textOf, type Connected } from './harness.js';

/**
 * Across two features through the real MCP client: notes remembered with ingest_episode (dated now, 1 November
 * 2025, each naming the day it tells of), then a query_world question about the time between them.
 */
describe('the time between two remembered things, asked through MCP', () => {
  let world: Awaited<ReturnType<typeof fixtureWorld>>;
  let mcp: Connected;
  beforeAll(async () => {
    world = await fixtureWorld();
    mcp = await connect({ db: world.db });
    for (const content of [
      'On March 5th I went to the Ash Wednesday service at the cathedral with my sister.',
      "I attended the Sunday mass at St. Mary's Church on April 6th; the sermon was about patience.",
    ]) {
      const r = await mcp.call('ingest_episode', { content });
      expect(structured<{ outcome: string }>(r).outcome).toBe('ingested');
    }
  });
  afterAll(async () => {
    await mcp.close();
    world.cleanup();
  });

  it('query_world writes the span, each end dated by the day its note names, not the day it was remembered', async () => {
    const text = textOf(
      await mcp.call('query_world', {
        query: "How many days passed between the Ash Wednesday service and the Sunday mass at St. Mary's Church?",
        max_tokens: 1000,
      }),
    );
    expect(text).toMatch(
      /^Time between what the question names \(dated by the turn that best matches each, quoted\): “the Ash Wednesday service” 5 March 2025 \[\d\] \(“On March 5th I went to the Ash Wednesday service at the cathedral with my sister\.”\), then “the Sunday mass at St\. Mary's Church” 6 April 2025 \[\d\] \(“… attended the Sunday mass at St\. Mary's Church on April 6th; the sermon was about patience\.”\): 32 days \(33 counting both days\), 4 weeks and 4 days, 1 month apart\.$/m,
    );
  });

  it('and counts back from now for "how many days ago"', async () => {
    const text = textOf(
      await mcp.call('query_world', { query: 'How many days ago did I go to the Ash Wednesday service?' }),
    );
    expect(text).toContain('“I go to the Ash Wednesday service” 5 March 2025');
    expect(text).toContain('241 days ago (242 counting both days)');
  });
});
