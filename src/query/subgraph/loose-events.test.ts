import { describe, expect, it } from 'vitest';
import { entity, T0, transition } from '../test-kit.js';
import { looseEvents } from './loose-events.js';

const sweden = entity({ id: 'sweden', name: 'Sweden', type: 'place' });
const melanie = entity({ id: 'mel', name: 'Melanie', type: 'person', aliases: ['Mel'] });
const childhood = entity({ id: 'kid', name: "Caroline's childhood", type: 'period' });
const entities = new Map([sweden, melanie, childhood].map((e) => [e.id, e]));
const born = (entityId: string) =>
  transition({
    id: `c-${entityId}`,
    entityId,
    kind: 'creation',
    eventTime: T0,
    summary: 'First mentioned in “session 4”',
  });

describe('looseEvents', () => {
  const events = [born('sweden'), born('mel'), born('kid')];

  it('leaves out the bare first mention of an entity the question does not name', () => {
    const out = looseEvents(events, entities, { question: 'What instruments does Melanie play?', entityIds: [] });
    expect(out.map((t) => t.summary)).toEqual(['Melanie (person): First mentioned in “session 4”']);
  });

  it('keeps a resolved entity, and one whose name or alias shares a word with the question', () => {
    const resolved = looseEvents(events, entities, { question: 'Where did she go?', entityIds: ['sweden'] });
    expect(resolved.map((t) => t.entityId)).toEqual(['sweden']);
    const byWord = looseEvents(events, entities, { question: 'What was her childhood like, Mel?', entityIds: [] });
    expect(byWord.map((t) => t.entityId)).toEqual(['mel', 'kid']);
  });

  it("leaves out the first mention of an entity whose block is shown, and of one named only by a named entity's name", () => {
    const jon = entity({ id: 'jon', name: 'Jon', type: 'person' });
    const youth = entity({ id: 'youth', name: "Jon's childhood", type: 'period' });
    const all = new Map([...entities, [jon.id, jon], [youth.id, youth]]);
    const question = { question: "What did Jon say about Melanie's progress?", entityIds: ['jon', 'mel'] };
    const context = { blocks: new Set(['mel']), namedNames: ['Jon', 'Melanie'] };
    const out = looseEvents([born('mel'), born('jon'), born('youth')], all, question, context);
    expect(out.map((t) => t.entityId)).toEqual(['jon']);
    // Without the context (no block shown, no names known) both people are kept, and the period by Jon's name.
    expect(looseEvents([born('mel'), born('jon'), born('youth')], all, question).map((t) => t.entityId)).toEqual([
      'mel',
      'jon',
      'youth',
    ]);
  });

  it('keeps every other change, and a creation that says more than where it came up', () => {
    const started = transition({
      id: 's',
      entityId: 'sweden',
      kind: 'creation',
      eventTime: T0,
      summary: 'Moved to Sweden',
    });
    const update = transition({ id: 'u', entityId: 'sweden', eventTime: T0, summary: 'Visited Stockholm' });
    const out = looseEvents([started, update], entities, {
      question: 'What instruments does Melanie play?',
      entityIds: [],
    });
    expect(out.map((t) => t.summary)).toEqual(['Sweden (place): Moved to Sweden', 'Sweden: Visited Stockholm']);
  });

  it("says whose every change is, unless its summary starts with the entity's name or alias", () => {
    const said = (id: string, summary: string) => transition({ id, entityId: 'mel', eventTime: T0, summary });
    const out = looseEvents(
      [said('a', 'Went to see a concert'), said('b', 'Melanie moved to Denver'), said('c', 'Mel adopted a cat')],
      entities,
      { question: 'Who went to a concert?', entityIds: [] },
    );
    expect(out.map((t) => t.summary)).toEqual([
      'Melanie: Went to see a concert',
      'Melanie moved to Denver',
      'Mel adopted a cat',
    ]);
  });
});
