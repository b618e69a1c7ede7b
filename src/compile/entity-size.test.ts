import { describe, expect, it } from 'vitest';
import { createTiktokenTokenizer } from '../adapters/tokenizer/tiktoken.js';
import { EVENT_ATTRIBUTE, type Relationship } from '../domain/world.js';
import { entity, queryPlan, subgraph as subgraphOf, transition } from '../query/test-kit.js';
import type { QueryPlan, Subgraph, SubgraphEntity } from '../query/types.js';
import { compileContext, shorterBlock } from './context.js';

/**
 * An entity block too long for the world model's share is shown shorter when the question asks about one of its
 * relationships (its head and those edges), not left out: "Which countries has Maria been to?" must not lose
 * Maria's visits because her history is long.
 */
const tokenizer = createTiktokenTokenizer();
const day = (d: number) => Date.UTC(2023, 5, d, 12);
const NOW = day(30);

const maria = entity({ id: 'maria', name: 'Maria', type: 'person', firstSeen: day(1), lastSeen: day(28) });
const did = (i: number) =>
  transition({
    id: `t${i}`,
    entityId: 'maria',
    kind: 'update',
    eventTime: day(1) + i * 3_600_000,
    summary: `Baked a batch of bread number ${i} for the neighbours down the street`,
    toState: { [EVENT_ATTRIBUTE]: `baked a batch of bread number ${i} for the neighbours down the street` },
    episodeId: 'e1',
  });
/** Maria's creation, which only says where she came up. */
const born = transition({
  id: 't0',
  entityId: 'maria',
  kind: 'creation',
  eventTime: day(1),
  summary: 'First mentioned in “Talk”',
  episodeId: 'e1',
});
const visited: Relationship = {
  id: 'r1',
  type: 'VISITED',
  sourceId: 'maria',
  targetId: 'spain',
  properties: {},
  validFrom: day(2),
  validTo: null,
  confidence: 0.7,
  episodeId: 'e1',
  recordedAt: day(2),
  discoveredBy: null,
};
const block: SubgraphEntity = {
  entity: maria,
  transitions: [did(1), did(2), did(3)],
  recentEvents: Array.from({ length: 25 }, (_, i) => did(40 - i)),
  transitionCount: 40,
  changeCount: 39,
  hiddenCount: 37,
  relationships: [{ relationship: visited, other: { id: 'spain', name: 'Spain', type: 'place' }, direction: 'out' }],
};
const subgraph = subgraphOf({ entities: [block] });
const plan = queryPlan({ question: 'Which countries has Maria been to?', intent: 'general', entityIds: ['maria'] });

function compile(limit: number, change: { plan?: Partial<QueryPlan>; subgraph?: Subgraph } = {}) {
  return compileContext({
    plan: { ...plan, ...change.plan },
    subgraph: change.subgraph ?? subgraph,
    time: { now: NOW, tz: 'UTC', format: 'absolute', periods: [] },
    episodes: new Map([['e1', { title: 'Talk', createdAt: day(2) }]]),
    budget: { limit, tokenizer },
  });
}

describe('an entity block too long for its share', () => {
  it('is shown shorter, its relationships kept, rather than left out', () => {
    const whole = compile(8000);
    expect(whole.text).toContain('bread number 16 ');
    const tight = compile(400);
    expect(tight.tokens).toBeLessThanOrEqual(400);
    expect(tight.text).toContain('• Maria (person)');
    expect(tight.text).toContain('↔ Maria VISITED Spain');
    expect(tight.text).not.toContain('bread number 16 ');
  });

  it('a visit reads "by" its date, not "since"', () => {
    expect(compile(8000).text).toContain('↔ Maria VISITED Spain, by 2 June 2023');
  });

  it('keeps only the edges the question asks about, and none of the history', () => {
    const smaller = shorterBlock(block, 'Which countries has Maria been to?');
    expect(smaller?.relationships).toHaveLength(1);
    expect(smaller?.transitions).toEqual([]);
    expect(smaller?.recentEvents).toBeUndefined();
    expect(smaller?.hiddenCount).toBe(40);
    // A question about something else has no shorter form: the block is left out for the evidence turns.
    expect(shorterBlock(block, 'What car does Maria drive?')).toBeNull();
  });

  it('keeps the changes and events whose words the question uses, and no others', () => {
    const race = transition({
      id: 'race',
      entityId: 'maria',
      kind: 'update',
      eventTime: day(3),
      summary: 'Ran a charity race for the shelter (last Sunday [4 June 2023])',
      toState: { [EVENT_ATTRIBUTE]: 'ran a charity race for the shelter' },
      episodeId: 'e1',
    });
    const withRace = { ...block, transitions: [did(1), race, did(3)] };
    const smaller = shorterBlock(withRace, 'When did Maria run the charity race?');
    expect(smaller?.transitions.map((t) => t.id)).toEqual(['race']);
    expect(smaller?.recentEvents).toBeUndefined();
    expect(smaller?.relationships).toEqual([]);
    expect(smaller?.hiddenCount).toBe(39);
    expect(shorterBlock(withRace, 'What bread did Maria bake?')?.recentEvents).toHaveLength(25);
  });

  it('leaves the block out when the question asks about none of its edges', () => {
    const other = compile(400, { plan: { question: 'What car does Maria drive?' } });
    expect(other.text).not.toContain('• Maria (person)');
  });

  it('keeps the head line of an entity the question names when it has other names, nothing more', () => {
    const mari = { ...block, entity: { ...maria, aliases: ['Mari'] } };
    const named = compile(400, {
      plan: { question: 'What nickname does John use for Maria?' },
      subgraph: { ...subgraph, entities: [mari] },
    });
    expect(named.tokens).toBeLessThanOrEqual(400);
    expect(named.text).toContain('• Maria (person, also called Mari): first appeared 1 June 2023; last referenced');
    expect(named.text).not.toContain('Changed state');
    expect(named.text).not.toContain('bread number');
    // Not named by the question (not resolved in its plan): left out as before.
    const unnamed = compile(400, {
      plan: { question: 'What nickname does John use for her?', entityIds: [] },
      subgraph: { ...subgraph, entities: [mari] },
    });
    expect(unnamed.text).not.toContain('• Maria (person');
  });

  it('leaves out a creation that only says where the entity came up once there is a change to show', () => {
    const withBirth: Subgraph = {
      ...subgraph,
      entities: [{ ...block, transitions: [born, did(2)], recentEvents: [] }],
    };
    const text = compile(8000, { plan: { wantsHistory: true }, subgraph: withBirth }).text;
    expect(text).not.toContain('First mentioned');
    expect(text).toContain('bread number 2 ');
  });

  it('cites where the entity came up on its head line when that creation is all its history', () => {
    const bornOnly: Subgraph = {
      ...subgraph,
      entities: [{ ...block, transitions: [born], recentEvents: [], changeCount: 0, hiddenCount: 0 }],
    };
    const text = compile(8000, { subgraph: bornOnly }).text;
    expect(text).toContain('• Maria (person): first appeared 1 June 2023 [1]; last referenced 28 June 2023.\n');
    expect(text).not.toContain('First mentioned');
    expect(text).not.toContain('Latest changes');
    expect(text).toContain('↔ Maria VISITED Spain, by 2 June 2023 [1]');
  });
});
