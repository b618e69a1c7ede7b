import { describe, expect, it } from 'vitest';
import type { EntityState, Transition } from '../../src/domain/world.js';
import {
  lifecycleSteps,
  mineProcedures,
  procedureId,
  stepLabel,
  type Lifecycle,
} from '../../src/metabolism/procedures.js';

const DAY = 86_400_000;

function t(
  kind: Transition['kind'],
  from: EntityState | null,
  to: EntityState,
  day: number,
  episodeId: string | null = null,
) {
  return { kind, fromState: from, toState: to, eventTime: day * DAY, episodeId };
}

/** A project that goes through `stages` one per `step` days from `start`. */
function project(id: string, start: number, stages: string[], type = 'project'): Lifecycle {
  const transitions = stages.map((stage, i) =>
    t(
      i === 0 ? 'creation' : 'update',
      i === 0 ? null : { stage: stages[i - 1] ?? null },
      { stage },
      start + i * 10,
      `${id}-ep${i}`,
    ),
  );
  return { entityId: id, entityType: type, transitions };
}

describe('stepLabel', () => {
  it.each([
    [t('creation', null, {}, 0), null],
    [t('creation', null, { stage: 'Idea', focus: 'x' }, 0), 'stage=idea'],
    [t('creation', null, { focus: 'x' }, 0), null],
    [t('update', { focus: 'x' }, { focus: 'y' }, 0), 'focus changed'],
    [t('update', { status: 'on', focus: 'x' }, { status: 'Off', focus: 'y' }, 0), 'status=off'],
    [t('update', { stage: 'idea', focus: 'x' }, { stage: 'Prototype  Built', focus: 'x' }, 0), 'stage=prototype built'],
    [t('update', { stage: 'idea' }, { stage: 'idea' }, 0), 'update'],
    [t('contradiction', null, {}, 0), 'reversal'],
    [t('resolution', null, {}, 0), 'resolved'],
    [t('archival', null, {}, 0), null],
    [t('summary', null, {}, 0), null],
    [t('update', { b: 1, a: 1, c: 1 }, { c: 2, b: 2, a: 1 }, 0), 'b changed'],
    [t('update', { stage: 1 }, { stage: '1' }, 0), 'stage=1'],
    [t('update', { stage: 'x' }, { stage: null }, 0), 'stage=null'],
    [t('update', { stage: 'x' }, { stage: true }, 0), 'stage=true'],
  ] as const)('%#: %j', (transition, expected) => {
    expect(stepLabel(transition)).toBe(expected);
  });

  it('labels the same way however many labels it has made (the labels it keeps are emptied now and then)', () => {
    for (let i = 0; i < 45_000; i++) {
      const value = `Stage ${i % 30_000}`;
      expect(stepLabel(t('update', { stage: 'x' }, { stage: value }, 0))).toBe(`stage=stage ${i % 30_000}`);
      expect(stepLabel(t('update', {}, { [`k${i % 25_000}`]: 1 }, 0))).toBe(`k${i % 25_000} changed`);
    }
  });

  it('collapses repeated steps and skips summaries', () => {
    const l: Lifecycle = {
      entityId: 'a',
      entityType: 'project',
      transitions: [
        t('creation', null, { stage: 'idea' }, 1),
        t('update', { stage: 'idea', n: 1 }, { stage: 'idea', n: 2 }, 2),
        t('update', { stage: 'idea', n: 2 }, { stage: 'idea', n: 3 }, 3),
        t('summary', null, {}, 4),
        t('update', { stage: 'idea' }, { stage: 'launched' }, 5),
      ],
    };
    expect(lifecycleSteps(l).map((s) => s.label)).toEqual(['stage=idea', 'n changed', 'stage=launched']);
  });
});

describe('mineProcedures (deterministic miner)', () => {
  const history: Lifecycle[] = [
    project('alpha', 0, ['idea', 'research', 'prototype', 'launched']),
    project('beta', 100, ['idea', 'research', 'prototype', 'abandoned']),
    project('gamma', 300, ['idea', 'research', 'prototype', 'launched']),
    project('delta', 400, ['idea', 'launched']),
    project('doubt', 0, ['held', 'research', 'prototype'], 'belief'),
  ];

  it('finds the shared lifecycle patterns with evidence, counts, bounds and confidence', () => {
    const found = mineProcedures(history);
    expect(found.map((p) => [p.pattern, p.timesObserved])).toEqual([
      [['stage=idea', 'stage=research', 'stage=prototype'], 3],
      [['stage=idea', 'stage=research', 'stage=prototype', 'stage=launched'], 2],
    ]);
    const [top, second] = found;
    expect(top).toMatchObject({
      id: procedureId('project lifecycle', ['stage=idea', 'stage=research', 'stage=prototype']),
      domain: 'project lifecycle',
      firstObserved: 0,
      lastObserved: 320 * DAY,
      description:
        'project lifecycle: stage=idea → stage=research → stage=prototype (seen in 3 of 4 project histories)',
    });
    expect(top?.evidence).toEqual(expect.arrayContaining(['alpha', 'beta', 'gamma', 'alpha-ep0', 'gamma-ep2']));
    expect(top?.evidence).not.toContain('delta');
    expect(top?.confidence).toBeCloseTo(0.75 * 0.75, 3);
    expect(second?.evidence).toEqual(expect.arrayContaining(['alpha', 'gamma']));
    expect((second?.confidence ?? 0) < (top?.confidence ?? 0)).toBe(true);
  });

  it('keeps types apart and needs the minimum support', () => {
    expect(mineProcedures(history, { minSupport: 4 })).toEqual([]);
    expect(mineProcedures(history.filter((l) => l.entityType === 'belief'))).toEqual([]);
  });

  it('needs a share of the lifecycles and keeps the most observed per type', () => {
    expect(mineProcedures(history, { minShare: 0.8 })).toEqual([]);
    expect(mineProcedures(history, { maxPerType: 1 }).map((p) => p.timesObserved)).toEqual([3]);
  });

  it('is deterministic: same input, same procedures and ids', () => {
    expect(
      mineProcedures([...history].reverse())
        .map((p) => p.id)
        .sort(),
    ).toEqual(
      mineProcedures(history)
        .map((p) => p.id)
        .sort(),
    );
  });
});
