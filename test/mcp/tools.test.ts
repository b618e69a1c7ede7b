import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, fixtureWorld, structured, textOf, type Connected } from './harness.js';

let world: Awaited<ReturnType<typeof fixtureWorld>>;
let mcp: Connected;

beforeAll(async () => {
  world = await fixtureWorld();
  mcp = await connect({ db: world.db });
});
afterAll(async () => {
  await mcp.close();
  world.cleanup();
});

const READ_TOOLS = [
  'query_world',
  'search_memory',
  'get_entity',
  'get_entity_timeline',
  'get_world_snapshot',
  'diff_periods',
  'get_contradictions',
  'list_periods',
  'get_procedures',
  'get_pyramid',
];

function errorCode(result: { _meta?: Record<string, unknown> }): unknown {
  return (result._meta?.['pie/error'] as { code?: string } | undefined)?.code;
}

describe('the tool list', () => {
  it('has the contract names, each with a description, input and output schemas and annotations', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [...READ_TOOLS, 'execute_kip_readonly', 'ingest_episode', 'execute_kip', 'forget'].sort(),
    );
    for (const tool of tools) {
      if (tool.name === 'execute_kip' || tool.name === 'forget') {
        expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
        continue;
      }
      expect(tool.description?.length ?? 0).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(Object.keys(tool.outputSchema?.properties ?? {})).toContain('budget');
      expect(tool.annotations?.destructiveHint).toBe(false);
      expect(tool.annotations?.readOnlyHint).toBe(tool.name !== 'ingest_episode');
      expect(tool.annotations?.idempotentHint).toBe(true);
    }
    const query = tools.find((t) => t.name === 'query_world');
    expect(query?.inputSchema.required).toEqual(['query']);
    expect(query?.inputSchema.properties?.query).toMatchObject({ type: 'string', minLength: 1, maxLength: 2000 });
  });
});

describe('query_world', () => {
  it('returns the compiled temporal context as text and the plan and sources as structured content', async () => {
    const r = await mcp.call('query_world', { query: 'How has Tidepool changed?' });
    const s = structured<{
      intent: string;
      entities: { name: string }[];
      sources: { n: number; title: string; time: string }[];
    }>(r);
    expect(textOf(r)).toContain('Pivoted from surf reports to tide alerts for kayakers');
    expect(textOf(r)).toContain('Sources:');
    expect(s.intent).toBe('temporal_diff');
    expect(s.entities[0]?.name).toBe('Tidepool');
    expect(s.sources.map((x) => x.title)).toContain('Tidepool pivot in SF.');
    expect(s.sources[0]?.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(s.budget).toMatchObject({ maxTokens: 4000, truncated: false, note: null });
  });

  it('writes times in the requested format', async () => {
    const absolute = textOf(
      await mcp.call('query_world', { query: 'When did Tidepool pivot?', time_format: 'absolute' }),
    );
    expect(absolute).toContain('1 July 2025: Pivoted');
    const semantic = textOf(
      await mcp.call('query_world', { query: 'When did Tidepool pivot?', time_format: 'semantic' }),
    );
    expect(semantic).not.toContain('1 July 2025');
    expect(semantic).toContain('about 4 months ago');
  });

  it('counts the entities it returns as accessed', async () => {
    const before = (await mcp.services.store.entities.findByKey('tidepool'))[0]?.accessCount ?? -1;
    await mcp.call('query_world', { query: 'What is the current state of Tidepool?' });
    const after = (await mcp.services.store.entities.findByKey('tidepool'))[0]?.accessCount ?? -1;
    expect(after).toBe(before + 1);
  });

  it('refuses an empty, blank or oversized query with a sentence saying what to do', async () => {
    const empty = await mcp.call('query_world', { query: '' });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toContain('The query is empty; ask a question in words');
    const blank = await mcp.call('query_world', { query: '   \n ' });
    expect(blank.isError).toBe(true);
    expect(textOf(blank)).toMatch(/empty; ask something in words/);
    expect(errorCode(blank)).toBe('INVALID_ARGUMENT');
    const long = await mcp.call('query_world', { query: 'why '.repeat(600) });
    expect(long.isError).toBe(true);
    expect(textOf(long)).toContain('longer than 2000 characters; ask one shorter question');
    const wrongType = await mcp.call('query_world', { query: 42 });
    expect(wrongType.isError).toBe(true);
  });
});

describe('search_memory', () => {
  it('finds entities, changes and conversations, best first, with a limit', async () => {
    const r = await mcp.call('search_memory', { query: 'Neo4j', limit: 3 });
    const s = structured<{ results: { kind: string; title: string; entity: { name: string } | null }[] }>(r);
    expect(s.results).toHaveLength(3);
    expect(s.results[0]).toMatchObject({ kind: 'entity', title: 'Neo4j', entity: { name: 'Neo4j' } });
    expect(textOf(r).split('\n')[0]).toBe('1. Neo4j (tool), last seen 2025-09-20');
  });

  it('says when nothing matches, and refuses empty text', async () => {
    const none = await mcp.call('search_memory', { query: 'xylophone' });
    expect(textOf(none)).toContain('Nothing matches "xylophone"');
    expect(structured<{ results: unknown[] }>(none).results).toEqual([]);
    const empty = await mcp.call('search_memory', { query: '' });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toContain('give at least one word');
  });
});

describe('get_entity', () => {
  it('finds an entity by alias with its state and current relationships', async () => {
    const r = await mcp.call('get_entity', { name: 'Maya' });
    const s = structured<{
      entity: { name: string; aliases: string[]; state: Record<string, unknown> };
      relationships: { type: string; target: { name: string } }[];
      latestChange: { summary: string } | null;
    }>(r);
    expect(s.entity).toMatchObject({ name: 'Maya Chen', aliases: ['Maya'], state: { role: 'advisor' } });
    expect(s.relationships).toContainEqual(
      expect.objectContaining({ type: 'WORKS_ON', target: expect.objectContaining({ name: 'Tidepool' }) }),
    );
    expect(s.latestChange?.summary).toContain('advisor');
    expect(textOf(r)).toContain('Current state: role: advisor');
  });

  it('fails on an unknown name with the closest known names and what to do next', async () => {
    const r = await mcp.call('get_entity', { name: 'Tidpool' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'No entity is called "Tidpool". The closest known names are "Tidepool"; call the tool again with one of them, or use search_memory to find the entity by other words.',
    );
    expect(r._meta?.['pie/error']).toEqual({ code: 'NOT_FOUND', suggestions: ['Tidepool'] });
    const far = await mcp.call('get_entity', { name: 'Quetzalcoatl' });
    expect(textOf(far)).toContain('No known name is close; use search_memory');
  });
});

describe('get_entity_timeline', () => {
  it('tells the history as a narrative with old → new values and flags the contradiction', async () => {
    const r = await mcp.call('get_entity_timeline', { entity_name: 'Tidepool' });
    const s = structured<{ totalTransitions: number; transitions: { kind: string; time: string }[] }>(r);
    expect(s.totalTransitions).toBe(3);
    expect(s.transitions.map((t) => t.kind)).toEqual(['creation', 'update', 'contradiction']);
    const text = textOf(r);
    expect(text).toContain('Changed state 2 times');
    expect(text).toContain('1 July 2025 (about 4 months ago, during gap semester in San Francisco): Pivoted');
    expect(text).toContain('[focus: surf reports → tide alerts]');
    expect(text).toContain('(unresolved)');
  });

  it('with a limit shows the latest changes but counts the whole history', async () => {
    const r = await mcp.call('get_entity_timeline', { entity_name: 'Tidepool', limit: 1, time_format: 'absolute' });
    const s = structured<{ totalTransitions: number; transitions: { summary: string }[] }>(r);
    expect(s.transitions.map((t) => t.summary)).toEqual(['Pivoted from surf reports to tide alerts for kayakers']);
    const text = textOf(r);
    expect(text).toContain('Changed state 2 times');
    expect(text).toContain('the latest 1 of 3 transitions; 2 older ones left out');
    expect(text).not.toContain('Launched a beta');
  });

  it('fails on an unknown name with suggestions', async () => {
    const r = await mcp.call('get_entity_timeline', { entity_name: 'Maya Chenn' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('"Maya Chen"');
  });
});

describe('get_world_snapshot', () => {
  it('without a period shows the world now', async () => {
    const r = await mcp.call('get_world_snapshot', {});
    const s = structured<{ total: number; span: { kind: string }; entities: { name: string }[] }>(r);
    expect(s.span.kind).toBe('now');
    expect(s.total).toBeGreaterThanOrEqual(10);
    expect(textOf(r)).toMatch(/^World as of 1 November 2025/);
  });

  it('at the end of a named period, with the state then', async () => {
    const r = await mcp.call('get_world_snapshot', { period: 'junior year', type: 'person' });
    const s = structured<{
      span: { label: string; kind: string };
      entities: { name: string; state: Record<string, unknown> }[];
    }>(r);
    expect(s.span).toMatchObject({ kind: 'period', label: 'junior year at UMD' });
    expect(s.entities).toEqual([expect.objectContaining({ name: 'Maya Chen', state: { role: 'classmate' } })]);
    expect(textOf(r)).toContain('Maya Chen (person): role: classmate');
  });

  it('fails on an unknown period naming the known ones, and on a malformed date', async () => {
    const r = await mcp.call('get_world_snapshot', { period: 'senior year' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(
      'No period is called "senior year". Known periods include "junior year at UMD", "gap semester in San Francisco"',
    );
    expect(textOf(r)).toContain('list_periods');
    const bad = await mcp.call('get_world_snapshot', { period: '2024-13-45' });
    expect(bad.isError).toBe(true);
    expect(errorCode(bad)).toBe('INVALID_ARGUMENT');
  });
});

describe('diff_periods', () => {
  it('lists what changed between two periods', async () => {
    const r = await mcp.call('diff_periods', { period_a: 'junior year at UMD', period_b: 'SF gap semester' });
    const s = structured<{
      swapped: boolean;
      attributesChanged: { total: number; items: { entity: { name: string }; attribute: string; to: unknown }[] };
      relationshipsBegun: { items: { type: string; target: { name: string } }[] };
    }>(r);
    expect(s.swapped).toBe(false);
    expect(s.attributesChanged.items).toContainEqual(
      expect.objectContaining({
        entity: expect.objectContaining({ name: 'Tidepool' }),
        attribute: 'focus',
        to: 'tide alerts',
      }),
    );
    expect(s.relationshipsBegun.items).toContainEqual(
      expect.objectContaining({ type: 'USES', target: expect.objectContaining({ name: 'FalkorDB' }) }),
    );
    expect(textOf(r)).toContain('Tidepool — focus: surf reports → tide alerts');
  });

  it('compares in time order when given the later one first', async () => {
    const r = await mcp.call('diff_periods', { period_a: 'gap semester', period_b: 'junior year' });
    expect(structured<{ swapped: boolean }>(r).swapped).toBe(true);
  });

  it('names the end that is unknown', async () => {
    const r = await mcp.call('diff_periods', { period_a: 'junior year', period_b: 'my PhD' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^No period is called "my PhD"\. Known periods include/);
  });
});

describe('get_contradictions', () => {
  it('lists the unresolved contradictions, and narrows to one entity', async () => {
    const all = structured<{ total: number; contradictions: { entity: { name: string }; kind: string }[] }>(
      await mcp.call('get_contradictions', {}),
    );
    expect(all.total).toBe(2);
    const tidepool = await mcp.call('get_contradictions', { entity_name: 'Tidepool' });
    const s = structured<{ total: number; contradictions: { summary: string; source: { title: string } }[] }>(tidepool);
    expect(s.total).toBe(1);
    expect(s.contradictions[0]).toMatchObject({
      summary: 'Pivoted from surf reports to tide alerts for kayakers',
      source: { title: 'Tidepool pivot in SF.' },
    });
    expect(textOf(tidepool)).toContain('1 unresolved contradiction about Tidepool');
  });

  it('fails on an unknown entity with suggestions', async () => {
    const r = await mcp.call('get_contradictions', { entity_name: 'Tidepol' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('"Tidepool"');
  });
});

describe('list_periods', () => {
  it('lists the periods in time order', async () => {
    const r = await mcp.call('list_periods');
    const s = structured<{ periods: { name: string; ongoing: boolean; end: string | null }[] }>(r);
    expect(s.periods.map((p) => p.name)).toEqual(['junior year at UMD', 'gap semester in San Francisco']);
    expect(textOf(r)).toContain('junior year at UMD: 10 September 2024 –');
  });
});

describe('get_procedures', () => {
  it('says when there are none, then filters by domain and lists known domains for an unknown one', async () => {
    const none = await mcp.call('get_procedures');
    expect(textOf(none)).toContain('has not found any procedures yet');
    const t = Date.UTC(2025, 0, 1);
    const proc = (id: string, domain: string, times: number) => ({
      id,
      description: `How I approach ${domain} (${id})`,
      pattern: ['research', 'prototype', 'ask for feedback'],
      evidence: ['c-idea'],
      timesObserved: times,
      firstObserved: t,
      lastObserved: t + 86_400_000,
      domain,
      confidence: 0.7,
    });
    await mcp.services.store.procedures.upsert(proc('p1', 'starting a project', 4));
    await mcp.services.store.procedures.upsert(proc('p2', 'writing', 2));
    const all = structured<{ total: number; domains: string[] }>(await mcp.call('get_procedures'));
    expect(all).toMatchObject({ total: 2, domains: ['starting a project', 'writing'] });
    const one = await mcp.call('get_procedures', { domain: 'Starting a Project' });
    const s = structured<{ total: number; procedures: { id: string; steps: string[] }[] }>(one);
    expect(s.procedures.map((p) => p.id)).toEqual(['p1']);
    expect(textOf(one)).toContain('   2) prototype');
    const unknown = await mcp.call('get_procedures', { domain: 'cooking' });
    expect(textOf(unknown)).toContain(
      'No procedures in the domain "cooking". Known domains: "starting a project", "writing".',
    );
  });
});

describe('resources and prompts', () => {
  it('serves the world summary and entity timelines', async () => {
    const summary = await mcp.client.readResource({ uri: 'pie://world/summary' });
    const text = (summary.contents[0] as { text: string }).text;
    expect(text).toContain('# World summary');
    expect(text).toContain('- junior year at UMD: 10 September 2024');
    expect(text).toContain('## Most important entities');
    const listed = await mcp.client.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain('pie://entity/Tidepool');
    const timeline = await mcp.client.readResource({ uri: 'pie://entity/Maya%20Chen' });
    expect((timeline.contents[0] as { text: string }).text).toMatch(/^Maya Chen \(person\), also called Maya/);
    await expect(mcp.client.readResource({ uri: 'pie://entity/Tidpool' })).rejects.toThrow(/Close names: Tidepool/);
  });

  it('offers a period review prompt with period names completed', async () => {
    const prompt = await mcp.client.getPrompt({ name: 'review_period', arguments: { period: 'junior year at UMD' } });
    expect((prompt.messages[0]?.content as { text: string }).text).toContain(
      'get_world_snapshot with period "junior year at UMD"',
    );
    const done = await mcp.client.complete({
      ref: { type: 'ref/prompt', name: 'review_period' },
      argument: { name: 'period', value: 'gap' },
    });
    expect(done.completion.values).toEqual(['gap semester in San Francisco']);
  });
});
