import { describe, expect, it } from 'vitest';
import type { Period } from '../../domain/world.js';
import { periodsToldLate, planLateDuring } from './plan-period.js';
import { DAY, T0, edge, ops, plan } from './test-kit.js';

/**
 * DURING links name the period an entity was first seen in. Extracted out of date order, that has to come out as in
 * date order: a first mention moved to an older conversation takes its link along, and a period made late takes in
 * the entities first seen inside it before it was known.
 */
const LATER = T0 + 300 * DAY;
const rust = {
  id: 'rust',
  type: 'tool',
  name: 'Rust',
  since: LATER,
  creation: { id: 'creation-rust', eventTime: LATER, episodeId: 'later', summary: 'First mentioned in “Rust again”' },
};
const junior = { id: 'junior', type: 'period', name: 'junior year' };
const gap = edge({ id: 'd-gap', type: 'DURING', sourceId: 'rust', targetId: 'gap', validFrom: LATER });

describe('a first mention moved to an older conversation', () => {
  it('drops its link to the later period and links it to this batch’s period', () => {
    const m = plan({
      known: [rust, junior],
      during: [gap],
      result: { entities: [{ name: 'Rust', type: 'tool' }], periodContext: 'junior year' },
    });
    expect(ops(m, 'relationship.remove')).toEqual([{ op: 'relationship.remove', id: 'd-gap' }]);
    expect(ops(m, 'relationship.insert').map((r) => [r.relationship.sourceId, r.relationship.targetId])).toEqual([
      ['rust', 'junior'],
    ]);
  });

  it('keeps a link to this batch’s period, moved back to this batch', () => {
    const same = edge({ id: 'd-junior', type: 'DURING', sourceId: 'rust', targetId: 'junior', validFrom: LATER });
    const m = plan({
      known: [rust, junior],
      during: [same],
      relationships: [same],
      result: { entities: [{ name: 'Rust', type: 'tool' }], periodContext: 'junior year' },
    });
    expect(ops(m, 'relationship.remove')).toEqual([]);
    expect(ops(m, 'relationship.insert')).toEqual([]);
    expect(ops(m, 'relationship.backdate')).toEqual([{ op: 'relationship.backdate', id: 'd-junior', validFrom: T0 }]);
  });

  it('drops the link when the older conversation has no period, and touches no link of an entity not moved', () => {
    const moved = plan({ known: [rust], during: [gap], result: { entities: [{ name: 'Rust', type: 'tool' }] } });
    expect(ops(moved, 'relationship.remove')).toEqual([{ op: 'relationship.remove', id: 'd-gap' }]);
    const started = { ...rust, creation: { ...rust.creation, summary: 'Started Rust' } };
    const kept = plan({
      known: [started, junior],
      during: [gap],
      result: { entities: [{ name: 'Rust', type: 'tool' }], periodContext: 'junior year' },
    });
    expect(ops(kept, 'relationship.remove')).toEqual([]);
    expect(ops(kept, 'relationship.insert')).toEqual([]);
  });
});

const period = (entityId: string, start: number, end: number | null): Period => ({
  entityId,
  name: entityId,
  start,
  end,
});

describe('a period told late', () => {
  it('is told late when its row is new (its whole range) or starts earlier (the new part only)', () => {
    const known = new Map([['junior', period('junior', T0, T0 + 100 * DAY)]]);
    expect(
      periodsToldLate(
        [period('gap', T0 + 120 * DAY, null), period('junior', T0 - 10 * DAY, T0 + 100 * DAY)],
        known,
      ).map((t) => [t.period.entityId, t.since, t.until]),
    ).toEqual([
      ['gap', T0 + 120 * DAY, null],
      ['junior', T0 - 10 * DAY, T0 - 1],
    ]);
    // A later end or the same start is not told late: what a batch of the period sees there, it links itself.
    expect(periodsToldLate([period('junior', T0, T0 + 200 * DAY)], known)).toEqual([]);
  });

  it('links an unlinked entity to the latest-starting period holding its first mention, when the batch told it', () => {
    const periods = [period('junior', T0, T0 + 100 * DAY), period('summer', T0 + 60 * DAY, T0 + 90 * DAY)];
    const told = periodsToldLate([periods[1] as Period], new Map());
    let n = 0;
    const m = planLateDuring({
      told,
      periods,
      unlinked: [
        { id: 'neo4j', firstSeen: T0 + 70 * DAY, episodeId: 'ep-neo' },
        { id: 'react', firstSeen: T0 + 10 * DAY, episodeId: null },
        { id: 'summer', firstSeen: T0 + 65 * DAY, episodeId: null },
        { id: 'yosemite', firstSeen: T0 + 95 * DAY, episodeId: null },
      ],
      recordedAt: T0 + 200 * DAY,
      newId: () => `d${++n}`,
    });
    // React lies only in junior year, which this batch did not tell; the period itself holds its own start, so its
    // home is junior year too; Yosemite came after summer ended.
    expect(m).toEqual([
      {
        op: 'relationship.insert',
        relationship: {
          id: 'd1',
          type: 'DURING',
          sourceId: 'neo4j',
          targetId: 'summer',
          properties: {},
          validFrom: T0 + 70 * DAY,
          validTo: null,
          confidence: 0.7,
          episodeId: 'ep-neo',
          recordedAt: T0 + 200 * DAY,
          discoveredBy: null,
        },
      },
    ]);
  });
});
