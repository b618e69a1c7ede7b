import { describe, expect, it } from 'vitest';
import type { Relationship } from '../../domain/world.js';
import { DAY, T0, edge, ops, plan } from './test-kit.js';

describe('applying an extraction result (pure rules)', () => {
  it('a new entity is inserted with its state, facts and a creation transition carrying that state', () => {
    const m = plan({
      result: {
        entities: [
          { name: 'Tidepool', type: 'project', aliases: ['TP'], state: { stage: 'prototype', focus: 'study groups' } },
        ],
      },
    });
    expect(
      ops(m, 'entity.insert').map((i) => [i.entity.name, i.entity.type, i.entity.state, i.entity.firstSeen]),
    ).toEqual([['Tidepool', 'project', { stage: 'prototype', focus: 'study groups' }, T0]]);
    expect(m[0]?.op).toBe('entity.insert');
    expect(
      ops(m, 'fact.insert').map((f) => [f.fact.attribute, f.fact.value, f.fact.validFrom, f.fact.validTo]),
    ).toEqual([
      ['stage', 'prototype', T0, null],
      ['focus', 'study groups', T0, null],
    ]);
    expect(
      ops(m, 'transition.insert').map((t) => [t.transition.kind, t.transition.fromState, t.transition.toState]),
    ).toEqual([['creation', null, { stage: 'prototype', focus: 'study groups' }]]);
    expect(ops(m, 'alias.add').map((a) => a.alias)).toEqual(['TP']);
    expect(ops(m, 'mention.add').map((x) => [x.entityId, x.episodeId])).toEqual([['new:tidepool', 'ep1']]);
  });

  it('a changed state of a known entity is one update transition that supersedes the changed facts only', () => {
    const m = plan({
      known: [{ id: 'tp', type: 'project', name: 'Tidepool', state: { stage: 'prototype', focus: 'study groups' } }],
      result: {
        entities: [
          { name: 'Tidepool', type: 'project', state: { stage: 'Launched', focus: 'Study Groups', users: 30 } },
        ],
      },
    });
    expect(ops(m, 'entity.insert')).toEqual([]);
    const [t] = ops(m, 'transition.insert');
    expect([t?.transition.kind, t?.transition.fromState, t?.transition.toState, t?.transition.summary]).toEqual([
      'update',
      { stage: 'prototype', users: null },
      { stage: 'Launched', users: 30 },
      'stage: prototype → Launched; users: 30',
    ]);
    const newStage = ops(m, 'fact.insert').find((f) => f.fact.attribute === 'stage')?.fact;
    expect(ops(m, 'fact.close')).toEqual([
      { op: 'fact.close', id: 'fact-tp-stage', validTo: T0, supersededBy: newStage?.id },
    ]);
    expect(ops(m, 'entity.touch')).toContainEqual({
      op: 'entity.touch',
      id: 'tp',
      lastSeen: T0,
      firstSeen: T0 - 30 * DAY,
      state: { stage: 'Launched', focus: 'study groups', users: 30 },
    });
  });

  it('an unchanged state records only that the entity was seen', () => {
    const m = plan({
      known: [{ id: 'tp', type: 'project', name: 'Tidepool', state: { stage: 'prototype' } }],
      result: { entities: [{ name: 'tidepool', type: 'project', state: { stage: 'prototype' } }] },
    });
    expect(m).toEqual([
      { op: 'mention.add', entityId: 'tp', episodeId: 'ep1', time: T0 },
      { op: 'entity.touch', id: 'tp', lastSeen: T0, firstSeen: T0 - 30 * DAY, state: { stage: 'prototype' } },
    ]);
  });

  it.each([
    // [state change, expected attribute, transition kind, from, to]
    [
      { oldStateAspect: 'study groups', newStateAspect: 'research notes', isContradiction: true },
      'focus',
      'contradiction',
      'study groups',
      'research notes',
    ],
    [{ attribute: 'stage', newStateAspect: 'launched' }, 'stage', 'update', 'prototype', 'launched'],
    [
      { oldStateAspect: 'something unknown', newStateAspect: 'paused' },
      'status',
      'update',
      'something unknown',
      'paused',
    ],
  ])('state change %o → attribute %s, %s transition', (change, attribute, kind, from, to) => {
    const m = plan({
      known: [{ id: 'tp', type: 'project', name: 'Tidepool', state: { stage: 'prototype', focus: 'study groups' } }],
      result: { stateChanges: [{ entityName: 'Tidepool', whatChanged: 'It changed', confidence: 0.9, ...change }] },
    });
    const [t] = ops(m, 'transition.insert');
    expect([
      t?.transition.kind,
      t?.transition.fromState,
      t?.transition.toState,
      t?.transition.summary,
      t?.transition.resolvedBy,
    ]).toEqual([kind, { [attribute]: from }, { [attribute]: to }, 'It changed', null]);
    expect(ops(m, 'fact.insert').map((f) => [f.fact.attribute, f.fact.value])).toEqual([[attribute, to]]);
  });

  it('a kinship that would change is a contradiction, whether the entity or a state change says it', () => {
    const known = [{ id: 'em', type: 'person', name: 'Emma', state: { relation: 'sister' } }];
    const declared = plan({
      known,
      result: { entities: [{ name: 'Emma', type: 'person', state: { relation: 'best friend' } }] },
    });
    const changed = plan({
      known,
      result: {
        stateChanges: [
          {
            entityName: 'Emma',
            whatChanged: 'Emma is my best friend',
            attribute: 'relation',
            newStateAspect: 'best friend',
            confidence: 0.8,
          },
        ],
      },
    });
    for (const m of [declared, changed]) {
      expect(ops(m, 'transition.insert').map((t) => [t.transition.kind, t.transition.toState])).toEqual([
        ['contradiction', { relation: 'best friend' }],
      ]);
    }
    // Not kinship: an update as before.
    const friend = plan({
      known: [{ id: 'sam', type: 'person', name: 'Sam', state: { relation: 'friend' } }],
      result: { entities: [{ name: 'Sam', type: 'person', state: { relation: 'colleague' } }] },
    });
    expect(ops(friend, 'transition.insert').map((t) => t.transition.kind)).toEqual(['update']);
  });

  it('a state change plus the same new state declared on the entity yields one transition, keeping the flag', () => {
    const m = plan({
      known: [{ id: 'tp', type: 'project', name: 'Tidepool', state: { focus: 'study groups' } }],
      result: {
        entities: [{ name: 'Tidepool', type: 'project', state: { focus: 'research notes' } }],
        stateChanges: [
          {
            entityName: 'Tidepool',
            whatChanged: 'Pivoted to research notes',
            oldStateAspect: 'study groups',
            newStateAspect: 'research notes',
            isContradiction: true,
            confidence: 0.9,
          },
        ],
      },
    });
    expect(ops(m, 'transition.insert').map((t) => [t.transition.kind, t.transition.summary])).toEqual([
      ['contradiction', 'Pivoted to research notes'],
    ]);
  });

  it('changes of one entity said at the same instant keep the order they were said in, a millisecond apart', () => {
    const change = (whatChanged: string, attribute: string, to: string) => ({
      entityName: 'Tidepool',
      attribute,
      whatChanged,
      newStateAspect: to,
      confidence: 0.9,
    });
    const m = plan({
      result: {
        entities: [{ name: 'Tidepool', type: 'project', state: { stage: 'idea' } }],
        stateChanges: [
          change('Built a prototype', 'stage', 'prototype'),
          change('Launched', 'stage', 'launched'),
          change('Moved to Supabase', 'backend', 'Supabase'),
        ],
      },
    });
    expect(ops(m, 'transition.insert').map((t) => [t.transition.summary, t.transition.eventTime - T0])).toEqual([
      ['First mentioned in “Planning day”', 0],
      ['Built a prototype', 1],
      ['Launched', 2],
      ['Moved to Supabase', 3],
    ]);
    // Each change's fact has its transition's instant (the life timeline pairs them by it).
    expect(ops(m, 'fact.insert').map((f) => [f.fact.value, f.fact.validFrom - T0])).toEqual([
      ['idea', 0],
      ['prototype', 1],
      ['launched', 2],
      ['Supabase', 3],
    ]);
    // A change stated at another time keeps it.
    const late = plan({
      known: [{ id: 'tp', type: 'project', name: 'Tidepool', state: { stage: 'idea' } }],
      result: {
        stateChanges: [
          change('Launched', 'stage', 'launched'),
          { ...change('Moved to Supabase', 'backend', 'Supabase'), eventTime: new Date(T0 + DAY).toISOString() },
        ],
      },
    });
    expect(ops(late, 'transition.insert').map((t) => t.transition.eventTime - T0)).toEqual([0, DAY]);
  });

  it('older information arriving late is kept as closed history and does not change the current state', () => {
    const m = plan({
      known: [{ id: 'tp', type: 'project', name: 'Tidepool', state: { stage: 'launched' }, since: T0 }],
      result: {
        stateChanges: [
          {
            entityName: 'Tidepool',
            whatChanged: 'was a prototype',
            attribute: 'stage',
            newStateAspect: 'prototype',
            eventTime: new Date(T0 - 10 * DAY).toISOString(),
          },
        ],
      },
    });
    expect(ops(m, 'transition.insert')).toEqual([]);
    expect(ops(m, 'fact.close')).toEqual([]);
    expect(
      ops(m, 'fact.insert').map((f) => [f.fact.value, f.fact.validFrom, f.fact.validTo, f.fact.supersededBy]),
    ).toEqual([['prototype', T0 - 10 * DAY, T0, 'fact-tp-stage']]);
  });

  it('an event told late is kept in the history at its own time, and the latest event stays current', () => {
    const m = plan({
      known: [{ id: 'jo', type: 'person', name: 'John', state: { latest_event: 'got promoted' }, since: T0 }],
      result: {
        stateChanges: [
          {
            entityName: 'John',
            whatChanged: 'Made an apple pie for the kids',
            attribute: 'latest_event',
            newStateAspect: 'made an apple pie for the kids',
            eventTime: new Date(T0 - DAY).toISOString(),
          },
        ],
      },
    });
    expect(
      ops(m, 'transition.insert').map((t) => [t.transition.summary, t.transition.eventTime, t.transition.fromState]),
    ).toEqual([['Made an apple pie for the kids', T0 - DAY, { latest_event: null }]]);
    expect(ops(m, 'fact.close')).toEqual([]);
    expect(ops(m, 'fact.insert').map((f) => [f.fact.value, f.fact.validTo])).toEqual([
      ['made an apple pie for the kids', T0],
    ]);
  });

  it('a plan told late (an older conversation imported after a later plan) is kept in the history; the later plan stays current', () => {
    const m = plan({
      known: [{ id: 'jo', type: 'person', name: 'John', state: { plan: 'flying to Paris (16 May 2023)' }, since: T0 }],
      result: {
        stateChanges: [
          {
            entityName: 'John',
            whatChanged: 'Plan: try yoga (for Monday [29 May 2023])',
            attribute: 'plan',
            newStateAspect: 'try yoga (29 May 2023)',
            eventTime: new Date(T0 - DAY).toISOString(),
          },
        ],
      },
    });
    expect(
      ops(m, 'transition.insert').map((t) => [t.transition.summary, t.transition.eventTime, t.transition.fromState]),
    ).toEqual([['Plan: try yoga (for Monday [29 May 2023])', T0 - DAY, { plan: null }]]);
    expect(ops(m, 'fact.close')).toEqual([]);
    expect(ops(m, 'fact.insert').map((f) => [f.fact.value, f.fact.validTo])).toEqual([['try yoga (29 May 2023)', T0]]);
  });

  it('relationships are versioned: a role change closes the old edge and opens a new one; an ended edge is closed', () => {
    const worksOn = edge({
      id: 'r1',
      type: 'WORKS_ON',
      sourceId: 'maya',
      targetId: 'tp',
      properties: { role: 'co-founder' },
      validFrom: T0 - 20 * DAY,
    });
    const uses: Relationship = { ...worksOn, id: 'r2', type: 'USES', sourceId: 'tp', targetId: 'lc', properties: {} };
    const m = plan({
      known: [
        { id: 'maya', type: 'person', name: 'Maya Chen' },
        { id: 'tp', type: 'project', name: 'Tidepool' },
        { id: 'lc', type: 'tool', name: 'LangChain' },
      ],
      relationships: [worksOn, uses],
      result: {
        relationships: [
          { source: 'Maya Chen', target: 'Tidepool', type: 'works on', properties: { role: 'CTO' } },
          { source: 'Tidepool', target: 'LangChain', type: 'USES', ended: true },
          { source: 'Maya Chen', target: 'Tidepool', type: 'WORKS_ON', properties: { role: 'CTO' } },
        ],
      },
    });
    expect(ops(m, 'relationship.close')).toEqual([
      { op: 'relationship.close', id: 'r1', validTo: T0 },
      { op: 'relationship.close', id: 'r2', validTo: T0 },
    ]);
    expect(
      ops(m, 'relationship.insert').map((r) => [
        r.relationship.type,
        r.relationship.properties,
        r.relationship.validTo,
      ]),
    ).toEqual([['WORKS_ON', { role: 'CTO' }, null]]);
  });

  it('an older version or an ending told after a later version is closed history; the open version stays open', () => {
    // Extracted out of date order: Maya is known as CEO since T0, then the 2024 conversation says co-founder.
    const known = [
      { id: 'maya', type: 'person', name: 'Maya Chen' },
      { id: 'tp', type: 'project', name: 'Tidepool' },
    ];
    const ceo = edge({
      id: 'r-ceo',
      type: 'WORKS_ON',
      sourceId: 'maya',
      targetId: 'tp',
      validFrom: T0,
      properties: { role: 'CEO' },
    });
    const at = (days: number) => new Date(T0 - days * DAY).toISOString();
    const rows = (m: ReturnType<typeof plan>) =>
      ops(m, 'relationship.insert').map((r) => [
        r.relationship.properties,
        r.relationship.validFrom,
        r.relationship.validTo,
      ]);
    const older = plan({
      known,
      relationships: [ceo],
      result: {
        relationships: [
          {
            source: 'Maya Chen',
            target: 'Tidepool',
            type: 'WORKS_ON',
            properties: { role: 'co-founder' },
            eventTime: at(200),
          },
        ],
      },
    });
    expect(ops(older, 'relationship.close')).toEqual([]);
    expect(rows(older)).toEqual([[{ role: 'co-founder' }, T0 - 200 * DAY, T0]]);
    const ended = plan({
      known,
      relationships: [ceo],
      result: {
        relationships: [{ source: 'Maya Chen', target: 'Tidepool', type: 'WORKS_ON', ended: true, eventTime: at(30) }],
      },
    });
    expect(ops(ended, 'relationship.close')).toEqual([]);
    expect(rows(ended)).toEqual([[{}, T0 - 30 * DAY, T0 - 30 * DAY]]);
    // Told in date order the version changes as before: closed at the newer one's start.
    const newer = plan({
      known,
      relationships: [ceo],
      result: {
        relationships: [
          {
            source: 'Maya Chen',
            target: 'Tidepool',
            type: 'WORKS_ON',
            properties: { role: 'advisor' },
            eventTime: new Date(T0 + 10 * DAY).toISOString(),
          },
        ],
      },
    });
    expect(ops(newer, 'relationship.close')).toEqual([
      { op: 'relationship.close', id: 'r-ceo', validTo: T0 + 10 * DAY },
    ]);
  });

  it('an open edge told again with an earlier start moves its start back; a later telling changes nothing', () => {
    const known = [
      { id: 'me', type: 'person', name: 'Ana' },
      { id: 'luna', type: 'pet', name: 'Luna' },
    ];
    const owns = edge({
      id: 'r-owns',
      type: 'OWNS',
      sourceId: 'me',
      targetId: 'luna',
      validFrom: T0 - 10 * DAY,
      confidence: 0.7,
    });
    const told = (eventTime: string) => ({ source: 'Ana', target: 'Luna', type: 'OWNS', eventTime });
    const adopted = new Date(T0 - 400 * DAY).toISOString();
    const earlier = plan({ known, relationships: [owns], result: { relationships: [told(adopted)] } });
    expect(ops(earlier, 'relationship.backdate')).toEqual([
      { op: 'relationship.backdate', id: 'r-owns', validFrom: T0 - 400 * DAY },
    ]);
    expect(ops(earlier, 'relationship.insert')).toEqual([]);
    expect(ops(earlier, 'relationship.close')).toEqual([]);
    // Told again later (the day it is said): the edge keeps its start.
    const later = plan({ known, relationships: [owns], result: { relationships: [told(new Date(T0).toISOString())] } });
    expect([...ops(later, 'relationship.backdate'), ...ops(later, 'relationship.insert')]).toEqual([]);
  });

  it('an ending told again is recorded once, in the batch and against an edge that already ended', () => {
    const known = [
      { id: 'gina', type: 'person', name: 'Gina' },
      { id: 'dd', type: 'organization', name: 'Door Dash' },
      { id: 'acme', type: 'organization', name: 'Acme' },
    ];
    const lost = (target: string) => ({ source: 'Gina', target, type: 'WORKS_AT', ended: true });
    const inserted = (m: ReturnType<typeof plan>) =>
      ops(m, 'relationship.insert').map((r) => [r.relationship.targetId, r.relationship.validTo]);

    // Never seen open: the first telling is recorded ended, the second in the same batch adds nothing.
    expect(inserted(plan({ known, result: { relationships: [lost('Door Dash'), lost('Door Dash')] } }))).toEqual([
      ['dd', T0],
    ]);

    // The world already holds the ending: telling it again adds nothing; an ending never recorded still does.
    const endedEdge = edge({
      id: 'r-dd',
      type: 'WORKS_AT',
      sourceId: 'gina',
      targetId: 'dd',
      validFrom: T0 - 30 * DAY,
      validTo: T0 - 30 * DAY,
      confidence: 0.8,
    });
    const again = plan({ known, ended: [endedEdge], result: { relationships: [lost('Door Dash'), lost('Acme')] } });
    expect(inserted(again)).toEqual([['acme', T0]]);
    expect(ops(again, 'relationship.close')).toEqual([]);

    // Taken up again and then lost: the new edge opens and closes; an ended edge in the slice never hides it.
    const back = plan({
      known,
      ended: [endedEdge],
      result: { relationships: [{ source: 'Gina', target: 'Door Dash', type: 'WORKS_AT' }, lost('Door Dash')] },
    });
    const opened = ops(back, 'relationship.insert').map((r) => r.relationship);
    expect(opened.map((r) => [r.targetId, r.validTo])).toEqual([['dd', null]]);
    expect(ops(back, 'relationship.close')).toEqual([{ op: 'relationship.close', id: opened[0]?.id, validTo: T0 }]);
  });

  it('an edge told late from before its recorded ending is history: never open, moved back, older, or split', () => {
    // Extracted out of date order: Gina worked at Door Dash from T0-400 to T0-30 (she left); older talk comes later.
    const known = [
      { id: 'gina', type: 'person', name: 'Gina' },
      { id: 'dd', type: 'organization', name: 'Door Dash' },
    ];
    const endedEdge = edge({
      id: 'r-dd',
      type: 'WORKS_AT',
      sourceId: 'gina',
      targetId: 'dd',
      validFrom: T0 - 400 * DAY,
      validTo: T0 - 30 * DAY,
      properties: { role: 'driver' },
    });
    const told = (days: number, properties: Record<string, string> = {}, history: Relationship[] = []) =>
      plan({
        known,
        ended: [endedEdge],
        history,
        result: {
          relationships: [
            {
              source: 'Gina',
              target: 'Door Dash',
              type: 'WORKS_AT',
              properties,
              eventTime: new Date(T0 - days * DAY).toISOString(),
            },
          ],
        },
      });
    const changes = (m: ReturnType<typeof plan>) => [
      ...ops(m, 'relationship.backdate'),
      ...ops(m, 'relationship.close'),
      ...ops(m, 'relationship.insert').map((r) => ({
        insert: r.relationship.properties,
        from: (T0 - r.relationship.validFrom) / DAY,
        to: r.relationship.validTo === null ? null : (T0 - r.relationship.validTo) / DAY,
      })),
    ];
    // The same edge said before its start: the start moves back; said within it: nothing new.
    expect(changes(told(500))).toEqual([{ op: 'relationship.backdate', id: 'r-dd', validFrom: T0 - 500 * DAY }]);
    expect(changes(told(100, { role: 'driver' }))).toEqual([]);
    // Other properties before it: an older version that ended where the known one began.
    expect(changes(told(600, { role: 'courier' }))).toEqual([{ insert: { role: 'courier' }, from: 600, to: 400 }]);
    // Other properties within it: it is split there, the newer part running to the recorded ending.
    expect(changes(told(100, { role: 'dispatcher' }))).toEqual([
      { op: 'relationship.close', id: 'r-dd', validTo: T0 - 100 * DAY },
      { insert: { role: 'dispatcher' }, from: 100, to: 30 },
    ]);
    // Said after the ending: taken up again, an open edge.
    expect(changes(told(10))).toEqual([{ insert: {}, from: 10, to: null }]);
    // The older version told again (the older conversation extracted again): nothing new within it, an earlier
    // start before it, never a second copy.
    const courier = edge({
      id: 'r-courier',
      type: 'WORKS_AT',
      sourceId: 'gina',
      targetId: 'dd',
      validFrom: T0 - 600 * DAY,
      validTo: T0 - 400 * DAY,
      properties: { role: 'courier' },
    });
    const again = (days: number) => changes(told(days, { role: 'courier' }, [courier]));
    expect(again(600)).toEqual([]);
    expect(again(500)).toEqual([]);
    expect(again(700)).toEqual([{ op: 'relationship.backdate', id: 'r-courier', validFrom: T0 - 700 * DAY }]);
  });

  it('a version told from before an ending recorded with no version seen open takes that ending’s place', () => {
    // "We ripped LangChain out of Tidepool" (T0-100) was extracted first: recorded as ended then, never open.
    const known = [
      { id: 'tp', type: 'project', name: 'Tidepool' },
      { id: 'lc', type: 'tool', name: 'LangChain' },
    ];
    const ending = edge({
      id: 'r-end',
      type: 'USES',
      sourceId: 'tp',
      targetId: 'lc',
      validFrom: T0 - 100 * DAY,
      validTo: T0 - 100 * DAY,
    });
    const uses = { source: 'Tidepool', target: 'LangChain', type: 'USES' };
    const at = (days: number) => new Date(T0 - days * DAY).toISOString();
    // Told with what it was for, in March: the version the ending closed, one edge; told again later, nothing new.
    const m = plan({
      known,
      ended: [ending],
      result: {
        relationships: [
          { ...uses, properties: { for: 'summaries' }, eventTime: at(180) },
          { ...uses, eventTime: at(170) },
        ],
      },
    });
    expect(ops(m, 'relationship.remove')).toEqual([{ op: 'relationship.remove', id: 'r-end' }]);
    expect(
      ops(m, 'relationship.insert').map((r) => [
        r.relationship.properties,
        (T0 - r.relationship.validFrom) / DAY,
        (T0 - (r.relationship.validTo ?? T0)) / DAY,
      ]),
    ).toEqual([[{ for: 'summaries' }, 180, 100]]);
    expect(ops(m, 'relationship.backdate')).toEqual([]);
  });

  it('a belief reversal abandons the old belief with a contradiction and links CONTRADICTS', () => {
    const m = plan({
      known: [{ id: 'b1', type: 'belief', name: 'vector search is enough for memory', state: { stance: 'held' } }],
      result: {
        beliefs: [
          {
            statement: 'knowledge graphs beat pure vector search',
            domain: 'AI memory',
            confidence: 0.8,
            replaces: 'Vector search is enough for memory',
          },
        ],
      },
    });
    const transitions = ops(m, 'transition.insert').map((t) => [
      t.transition.entityId,
      t.transition.kind,
      t.transition.toState,
    ]);
    expect(transitions).toEqual([
      [
        'new:knowledge graphs beat pure vector search',
        'creation',
        { stance: 'held', confidence: 0.8, domain: 'AI memory' },
      ],
      ['b1', 'contradiction', { stance: 'abandoned' }],
    ]);
    expect(
      ops(m, 'relationship.insert').map((r) => [r.relationship.sourceId, r.relationship.type, r.relationship.targetId]),
    ).toEqual([['new:knowledge graphs beat pure vector search', 'CONTRADICTS', 'b1']]);
  });

  it('a decision is an entity ABOUT its subjects; "I" is the user', () => {
    const m = plan({
      known: [{ id: 'tp', type: 'project', name: 'Tidepool' }],
      result: {
        decisions: [
          {
            summary: 'use Supabase instead of Firebase',
            reasoning: 'Postgres underneath',
            alternatives: ['Firebase'],
            relatedEntities: ['Tidepool', 'Supabase'],
          },
        ],
        relationships: [{ source: 'I', target: 'Tidepool', type: 'WORKS_ON', properties: { role: 'founder' } }],
      },
    });
    expect(ops(m, 'entity.insert').map((e) => [e.entity.name, e.entity.state])).toEqual([
      [
        'use Supabase instead of Firebase',
        { status: 'made', reasoning: 'Postgres underneath', alternatives: 'Firebase' },
      ],
      ['Supabase', {}],
    ]);
    expect(
      ops(m, 'relationship.insert').map((r) => [r.relationship.sourceId, r.relationship.type, r.relationship.targetId]),
    ).toEqual([
      ['new:use supabase instead of firebase', 'ABOUT', 'tp'],
      ['new:use supabase instead of firebase', 'ABOUT', 'new:supabase'],
      ['self', 'WORKS_ON', 'tp'],
    ]);
  });

  it('a period with a stated start gets its row from that start, open while active; one with no date gets none', () => {
    const m = plan({
      result: {
        batch: { id: '2024-03-15', date: new Date(T0).toISOString(), episodeIds: ['ep1'] },
        entities: [
          { name: "Gina's unemployment", type: 'period', state: { status: 'active', start: '2023-01-20' } },
          { name: "Gina's childhood", type: 'period', state: { status: 'ended' } },
          { name: 'gap year', type: 'period', state: { status: 'ended', start: '2021-09-01', end: '2022-06-30' } },
        ],
      },
    });
    expect(ops(m, 'period.upsert').map((p) => p.period)).toEqual([
      {
        entityId: 'new:ginas unemployment',
        name: "Gina's unemployment",
        start: Date.parse('2023-01-20T12:00:00.000Z'),
        end: null,
      },
      {
        entityId: 'new:gap year',
        name: 'gap year',
        start: Date.parse('2021-09-01T12:00:00.000Z'),
        end: Date.parse('2022-06-30T12:00:00.000Z'),
      },
    ]);
  });

  it('the period follows observed dates and new entities are DURING it; episodes are annotated', () => {
    const m = plan({
      result: {
        batch: { id: '2024-03-15', date: new Date(T0).toISOString(), episodeIds: ['ep1', 'ep2'] },
        entities: [{ name: 'Supabase', type: 'tool', episodeId: 'ep2' }],
        periodContext: 'junior year at UMD',
        summary: 'Chose a database.',
        significance: 0.6,
        userState: 'decisive',
        episodes: [{ id: 'ep2', summary: 'Database choice', significance: 0.7 }],
      },
      episodeTimes: { ep1: T0, ep2: T0 + 3_600_000 },
    });
    expect(ops(m, 'period.upsert').map((p) => p.period)).toEqual([
      { entityId: 'new:junior year at umd', name: 'junior year at UMD', start: T0, end: T0 + 3_600_000 },
    ]);
    expect(
      ops(m, 'relationship.insert').map((r) => [r.relationship.sourceId, r.relationship.type, r.relationship.targetId]),
    ).toEqual([['new:supabase', 'DURING', 'new:junior year at umd']]);
    expect(ops(m, 'episode.annotate')).toEqual([
      { op: 'episode.annotate', id: 'ep2', summary: 'Database choice', significance: 0.7, userState: undefined },
      { op: 'episode.annotate', id: 'ep1', summary: 'Chose a database.', significance: 0.6, userState: 'decisive' },
    ]);
    expect(ops(m, 'mention.add').map((x) => [x.entityId, x.episodeId])).toEqual([
      ['new:supabase', 'ep2'],
      ['new:junior year at umd', 'ep1'],
      ['new:junior year at umd', 'ep2'],
    ]);
  });
});
