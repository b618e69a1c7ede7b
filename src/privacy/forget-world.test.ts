import { describe, expect, it } from 'vitest';
import {
  noTextMatches,
  type ForgetScan,
  type ForgetSeeds,
  type ScannedEntity,
  type TextMatches,
} from '../ports/forget-store.js';
import { entitiesGone, planWorld } from './forget-world.js';

/** An entity mentioned in the given conversations (at times 1, 2, …), with a creation transition in the first. */
function entity(id: string, episodes: string[], more: Partial<ScannedEntity> = {}): ScannedEntity {
  return {
    id,
    name: id.toUpperCase(),
    type: 'concept',
    state: {},
    firstSeen: 1,
    lastSeen: episodes.length,
    createdFrom: episodes[0] ?? null,
    mergedInto: null,
    protected: false,
    madeByHand: false,
    aliases: [],
    mentions: episodes.map((episodeId, i) => ({ episodeId, time: i + 1 })),
    transitions: episodes.slice(0, 1).map((episodeId) => ({
      id: `t-${id}`,
      kind: 'creation' as const,
      summary: `created ${id}`,
      episodeId,
      resolvedBy: null,
    })),
    facts: [],
    relationships: [],
    ...more,
  };
}

const seeds = (episodeIds: string[], entityIds: string[] = []): ForgetSeeds => ({
  episodeIds,
  turns: [],
  entityIds,
  text: [],
});

const scan = (entities: ScannedEntity[], text: Partial<TextMatches> = {}): ForgetScan => ({
  episodes: [],
  partial: [],
  turns: [],
  entities,
  text: { ...noTextMatches(), ...text },
});

describe('entitiesGone', () => {
  const cases: { title: string; seeds: ForgetSeeds; entities: ScannedEntity[]; gone: string[] }[] = [
    {
      title: 'mentioned only in the forgotten conversation',
      seeds: seeds(['c1']),
      entities: [entity('a', ['c1'])],
      gone: ['a'],
    },
    {
      title: 'also mentioned in another conversation',
      seeds: seeds(['c1']),
      entities: [entity('a', ['c1', 'c2'])],
      gone: [],
    },
    {
      title: 'a fact from another conversation is a source too',
      seeds: seeds(['c1']),
      entities: [
        entity('a', ['c1'], {
          facts: [
            {
              id: 'f',
              entityId: 'a',
              attribute: 'x',
              value: 1,
              validFrom: 1,
              validTo: null,
              supersededBy: null,
              episodeId: 'c2',
              recordedAt: 1,
              confidence: 1,
            },
          ],
        }),
      ],
      gone: [],
    },
    {
      title: 'written by hand (KIP) counts as a source of its own',
      seeds: seeds(['c1']),
      entities: [entity('a', ['c1'], { madeByHand: true })],
      gone: [],
    },
    {
      title: 'the user and protected entities always stay',
      seeds: seeds(['c1']),
      entities: [entity('self', ['c1']), entity('p', ['c1'], { protected: true })],
      gone: [],
    },
    {
      title: 'a maintenance transition (no conversation) is not a source',
      seeds: seeds(['c1']),
      entities: [
        entity('a', ['c1'], {
          transitions: [{ id: 't', kind: 'summary', summary: 's', episodeId: null, resolvedBy: null }],
        }),
      ],
      gone: ['a'],
    },
    {
      title: 'an entity merged into one that goes goes with it; one linked to nothing forgotten stays',
      seeds: seeds(['c1']),
      entities: [entity('a', ['c1']), entity('b', [], { mergedInto: 'a' }), entity('c', ['c2'])],
      gone: ['a', 'b'],
    },
    {
      title: 'a named entity goes even with other sources',
      seeds: seeds([], ['a']),
      entities: [entity('a', ['c1', 'c2'])],
      gone: ['a'],
    },
  ];
  for (const c of cases) {
    it(c.title, () => {
      expect([...entitiesGone(c.seeds, scan(c.entities))].sort()).toEqual(c.gone);
    });
  }
});

describe('planWorld', () => {
  it('re-derives an entity that stays from what remains: dates, origin, state, and contradictions reopened', () => {
    const kept = entity('k', ['c1', 'c2'], {
      state: { stage: 'beta' },
      firstSeen: 1,
      lastSeen: 2,
      createdFrom: 'c1',
      transitions: [
        { id: 'contra', kind: 'contradiction', summary: 'x', episodeId: 'c2', resolvedBy: 'res' },
        { id: 'res', kind: 'resolution', summary: 'y', episodeId: 'c1', resolvedBy: null },
      ],
      facts: [
        {
          id: 'f1',
          entityId: 'k',
          attribute: 'stage',
          value: 'idea',
          validFrom: 2,
          validTo: 3,
          supersededBy: 'f2',
          episodeId: 'c2',
          recordedAt: 2,
          confidence: 1,
        },
        {
          id: 'f2',
          entityId: 'k',
          attribute: 'stage',
          value: 'beta',
          validFrom: 3,
          validTo: null,
          supersededBy: null,
          episodeId: 'c1',
          recordedAt: 3,
          confidence: 1,
        },
      ],
      relationships: [{ id: 'r1', episodeId: 'c1', discoveredBy: null }],
      aliases: [{ alias: 'Kay', normalized: 'kay' }],
    });
    const plan = planWorld({
      seeds: seeds(['c1']),
      scan: scan([kept]),
      gone: new Set(),
      dropAliases: new Set(['k\u001fkay']),
    });
    expect(plan.gone).toEqual([]);
    expect(plan.kept).toEqual([{ entity: kept, otherSources: 1 }]);
    expect(plan.transitionIds).toEqual(['res']);
    expect(plan.factIds).toEqual(['f2']);
    expect(plan.relationshipIds).toEqual(['r1']);
    expect(plan.mentions).toEqual([{ entityId: 'k', episodeId: 'c1' }]);
    expect(plan.aliases).toEqual([{ entityId: 'k', normalized: 'kay', alias: 'Kay' }]);
    expect(plan.repairs).toEqual({
      facts: [{ id: 'f1', validTo: null, supersededBy: null }],
      reopenedTransitions: ['contra'],
      entities: [{ id: 'k', state: { stage: 'idea' }, firstSeen: 2, lastSeen: 2, createdFrom: 'c2' }],
    });
    expect(plan.touched).toEqual(
      expect.arrayContaining([
        { table: 'entities', rowId: 'k' },
        { table: 'facts', rowId: 'f1' },
        { table: 'transitions', rowId: 'contra' },
        { table: 'entity_mentions', rowId: 'k\u001fc1' },
        { table: 'entity_aliases', rowId: 'k\u001fkay' },
      ]),
    );
  });

  it('removes everything of an entity that goes, and counts the conversations that still name it', () => {
    const a = entity('a', ['c1', 'c2'], { relationships: [{ id: 'r', episodeId: 'c2', discoveredBy: null }] });
    const plan = planWorld({ seeds: seeds([], ['a']), scan: scan([a]), gone: new Set(['a']), dropAliases: new Set() });
    expect(plan.gone.map((e) => e.id)).toEqual(['a']);
    expect(plan.transitionIds).toEqual(['t-a']);
    expect(plan.relationshipIds).toEqual(['r']);
    expect(plan.mentions).toHaveLength(2);
    expect(plan.stillNamedIn).toBe(2);
    expect(plan.repairs.entities).toEqual([]);
  });
});
