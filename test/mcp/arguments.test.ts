import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unknownArguments } from '../../src/serve/mcp/strict-input.js';
import { connect, fixtureWorld, textOf, type Connected } from './harness.js';

/**
 * Arguments an LLM can get right: an argument name a tool does not have is an error that names the right ones
 * (it used to be dropped, so `get_world_snapshot {at}` answered for now), and a date that is not a date is an error,
 * never "now".
 */
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

describe('unknown argument names', () => {
  it('get_world_snapshot {at} is refused and the message names period', async () => {
    const r = await mcp.call('get_world_snapshot', { at: '2024-06-01' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(
      'get_world_snapshot has no argument "at"; its arguments are period, type, limit, time_format.',
    );
  });

  it('a near miss is pointed at the argument meant', async () => {
    const r = await mcp.call('get_entity', { nmae: 'Maya' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('get_entity has no argument "nmae" (did you mean name?)');
  });

  it('an argument named by a word of the right one is pointed at it, and the missing one is named once', async () => {
    const r = await mcp.call('get_entity_timeline', { name: 'Tidepool' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'get_entity_timeline has no argument "name" (did you mean entity_name?); its arguments are entity_name, ' +
        'time_format, limit. get_entity_timeline needs the argument entity_name (string).',
    );
    const d = await mcp.call('diff_periods', { a: '2025-01-01', b: '2025-06-01' });
    expect(textOf(d)).toContain('diff_periods has no arguments "a", "b" (did you mean period_a, period_b?)');
  });

  it('a refused value reads as the tool wrote it: no protocol prefix, no " at <argument>" glued after it', async () => {
    const r = await mcp.call('get_entity', { name: '' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).not.toMatch(/MCP error|Input validation error| at name$/);
    expect(textOf(r)).toMatch(/^The name is empty; /);
  });

  it('every listed tool says additionalProperties: false', async () => {
    const { tools } = await mcp.client.listTools();
    for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
  });

  it('a tool without arguments says to call it with none', () => {
    expect(unknownArguments('list_periods', ['since'], [])).toBe(
      'list_periods has no argument "since"; call it with no arguments.',
    );
    expect(unknownArguments('t', ['alpha', 'beta'], ['query'])).toBe(
      't has no arguments "alpha", "beta"; its arguments are query.',
    );
  });

  it('known arguments still work', async () => {
    const r = await mcp.call('get_world_snapshot', { period: '2025-06-01', limit: 5 });
    expect(r.isError, textOf(r)).toBeFalsy();
  });
});

describe('dates that are not dates', () => {
  for (const bad of ['2024-13-01', '2024-02-30', 'the day after never']) {
    it(`get_world_snapshot period "${bad}" is an error, not now`, async () => {
      const r = await mcp.call('get_world_snapshot', { period: bad });
      expect(r.isError, textOf(r)).toBe(true);
    });
  }
});

describe('arguments that are not an object', () => {
  for (const [label, args] of [
    ['a string', 'Tidepool'],
    ['an array', ['Tidepool']],
    ['null', null],
  ] as const) {
    it(`${label} is a tool error the model can read, not a protocol error`, async () => {
      const r = (await mcp.client.request(
        { method: 'tools/call', params: { name: 'get_entity', arguments: args as never } },
        CallToolResultSchema,
      )) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(
        `get_entity takes its arguments as a JSON object of named values (e.g. {"name": "…"}), not ${label}; call it again with an object.`,
      );
    });
  }
});

describe('the type filter', () => {
  const snapshot = async (type: string) => mcp.call('get_world_snapshot', { type });
  const total = (r: CallToolResult): number => (r.structuredContent as { total: number }).total;

  it('matches the stored type whatever its case, as KIP spells it', async () => {
    const lower = await snapshot('person');
    expect(lower.isError, textOf(lower)).toBeFalsy();
    expect(total(lower)).toBeGreaterThan(0);
    const camel = await snapshot('Person');
    expect(camel.isError, textOf(camel)).toBeFalsy();
    expect(total(camel)).toBe(total(lower));
    expect((camel.structuredContent as { type: string }).type).toBe('person');
  });

  it('an unknown type is a tool error naming the known types, not an empty world', async () => {
    const r = await snapshot('bogus');
    expect(r.isError).toBe(true);
    expect(r._meta?.['pie/error']).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(textOf(r)).toMatch(
      /^No entity has the type "bogus"; the types in this memory are [a-z, ]*person[a-z, ]*\.$/,
    );
  });
});
