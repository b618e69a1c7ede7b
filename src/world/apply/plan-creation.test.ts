import { describe, expect, it } from 'vitest';
import type { EntitySnapshot } from './working-set.js';
import { DAY, T0, ops, plan } from './test-kit.js';

/**
 * A known entity whose bare creation ("First mentioned in …") cites a later conversation than one that mentions it
 * now: the earlier conversation was extracted late, and the creation moves to it, as in date order.
 */
const LATER = T0 + 300 * DAY;
const bare: NonNullable<EntitySnapshot['creation']> = {
  id: 'creation-rust',
  eventTime: LATER,
  episodeId: 'later',
  summary: 'First mentioned in “Rust again”',
};
const rust = (creation: EntitySnapshot['creation'] | null = bare) => ({
  id: 'rust',
  type: 'tool',
  name: 'Rust',
  since: LATER,
  ...(creation ? { creation } : {}),
});
const mention = { entities: [{ name: 'Rust', type: 'tool' as const }] };

describe('a first mention extracted late', () => {
  it('moves the bare creation to the earlier conversation: its time, its id and its title', () => {
    const m = plan({ known: [rust()], result: mention, episodeTitles: { ep1: 'Learning Rust' } });
    expect(ops(m, 'transition.retime')).toEqual([
      {
        op: 'transition.retime',
        id: 'creation-rust',
        eventTime: T0,
        episodeId: 'ep1',
        summary: 'First mentioned in “Learning Rust”',
      },
    ]);
    // No second creation, and the entity is first seen at the earlier mention.
    expect(ops(m, 'transition.insert').filter((t) => t.transition.kind === 'creation')).toEqual([]);
    expect(ops(m, 'entity.touch').find((t) => t.id === 'rust')?.firstSeen).toBe(T0);
  });

  it('moves the state its creation set along, unless the batch told another value from before it', () => {
    // Its creation (in conversation "old", at LATER) set category: language; the facts began there.
    const known = { ...rust({ ...bare, episodeId: 'old' }), state: { category: 'language' } };
    const m = plan({ known: [known], result: mention });
    expect(ops(m, 'fact.backdate')).toEqual([{ op: 'fact.backdate', id: 'fact-rust-category', validFrom: T0 }]);
    const other = plan({
      known: [known],
      result: { entities: [{ name: 'Rust', type: 'tool', state: { category: 'toy' } }] },
    });
    expect(ops(other, 'fact.backdate')).toEqual([]);
    expect(ops(other, 'fact.insert').map((f) => [f.fact.value, f.fact.validFrom, f.fact.validTo])).toEqual([
      ['toy', T0 + 1, LATER],
    ]);
    // A fact from elsewhere (another conversation) stays where it began.
    const elsewhere = { ...rust(), state: { category: 'language' } };
    expect(ops(plan({ known: [elsewhere], result: mention }), 'fact.backdate')).toEqual([]);
  });

  it('takes the earliest of the batch’s conversations once', () => {
    const m = plan({
      known: [rust()],
      result: {
        batch: { id: 'b', date: new Date(T0).toISOString(), episodeIds: ['ep1', 'ep0'] },
        entities: [{ name: 'Rust', type: 'tool', episodeId: 'ep1' }],
        stateChanges: [
          {
            entityName: 'Rust',
            attribute: 'status',
            whatChanged: 'Tried Rust',
            newStateAspect: 'trying',
            episodeId: 'ep0',
          },
        ],
      },
      episodeTimes: { ep1: T0, ep0: T0 - 10 * DAY },
      episodeTitles: { ep1: 'Learning Rust', ep0: 'First steps' },
    });
    expect(ops(m, 'transition.retime').map((r) => [r.eventTime, r.episodeId, r.summary])).toEqual([
      [T0 - 10 * DAY, 'ep0', 'First mentioned in “First steps”'],
    ]);
    // A change said in that conversation comes after the creation's instant, as after a creation made here.
    const change = ops(m, 'transition.insert').find((t) => t.transition.summary === 'Tried Rust');
    expect(change?.transition.eventTime).toBe(T0 - 10 * DAY + 1);
  });

  it('says what a creation made there would say (a belief held since then)', () => {
    const belief = { id: 'b', type: 'belief', name: 'vector search is enough', since: LATER, creation: bare };
    const m = plan({
      known: [belief],
      result: { beliefs: [{ statement: 'vector search is enough', confidence: 0.8 }] },
    });
    expect(ops(m, 'transition.retime').map((r) => r.summary)).toEqual(['Came to believe: vector search is enough']);
  });

  it('leaves a creation that says more than a first mention, one already earlier, and a later talk recalling the past', () => {
    const started = { ...bare, summary: 'Started Rust' };
    expect(ops(plan({ known: [rust(started)], result: mention }), 'transition.retime')).toEqual([]);
    expect(
      ops(plan({ known: [rust({ ...bare, eventTime: T0 - DAY })], result: mention }), 'transition.retime'),
    ).toEqual([]);
    expect(ops(plan({ known: [rust(null)], result: mention }), 'transition.retime')).toEqual([]);
    // Said in a conversation after the creation's, of a time before it: it was first mentioned where it was.
    const recalled = plan({
      known: [rust({ ...bare, eventTime: T0 })],
      result: { entities: [{ name: 'Rust', type: 'tool', eventTime: new Date(T0 - 400 * DAY).toISOString() }] },
      episodeTimes: { ep1: T0 + DAY },
    });
    expect(ops(recalled, 'transition.retime')).toEqual([]);
  });
});
