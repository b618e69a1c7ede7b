import { describe, expect, it } from 'vitest';
import { entity, transition } from '../query/test-kit.js';
import {
  conflictingFactFindings,
  duplicateFindings,
  provenanceFindings,
  staleCommitmentFindings,
  unchangedTransitionFindings,
} from './detectors.js';
import type { Fact } from '../domain/world.js';

const DAY = 86_400_000;
const fact = (attribute: string, value: string): Fact => ({
  id: `${attribute}-${value}`,
  entityId: 'e',
  attribute,
  value,
  validFrom: 0,
  validTo: null,
  supersededBy: null,
  confidence: 0.8,
  episodeId: null,
  recordedAt: 0,
});

describe('audit detectors', () => {
  it('exact and alias duplicates merge into the more important entity; fuzzy ones are for review', () => {
    const a = entity({ id: 'a', name: 'Tidepool', importance: 0.9 });
    const b = entity({ id: 'b', name: 'tidepool', importance: 0.2 });
    const c = entity({ id: 'c', name: 'Tidepool app', importance: 0.1 });
    const byId = new Map([a, b, c].map((e) => [e.id, e]));
    const found = duplicateFindings({
      candidates: [
        { a: 'a', b: 'b', reason: 'exact', score: 1 },
        { a: 'a', b: 'c', reason: 'contained', score: 0.9 },
      ],
      byId,
    });
    expect(found.map((f) => [f.entity.id, f.action.kind, f.safe])).toEqual([
      ['b', 'merge', true],
      ['c', 'review', false],
    ]);
  });

  it('a person known by a first name alone goes into the full name, even when it is the more important one', () => {
    const first = entity({ id: 'a', name: 'Maya', type: 'person', importance: 0.9 });
    const full = entity({ id: 'b', name: 'Maya Chen', type: 'person', importance: 0.2 });
    const found = duplicateFindings({
      candidates: [{ a: 'a', b: 'b', reason: 'contained', score: 0.9 }],
      byId: new Map([first, full].map((e) => [e.id, e])),
    });
    expect(found.map((f) => [f.entity.name, f.other?.name, f.action])).toEqual([
      ['Maya', 'Maya Chen', { kind: 'review', what: 'merge into "Maya Chen"?' }],
    ]);
  });

  it('finds entities without provenance, periods aside', () => {
    const loose = entity({ id: 'x', name: 'Loose' });
    const named = entity({ id: 'y', name: 'Named' });
    const period = entity({ id: 'p', name: 'summer', type: 'period' });
    const found = provenanceFindings({
      entities: [loose, named, period],
      mentioned: new Set(['y']),
      withSourcedChange: new Set(),
    });
    expect(found.map((f) => f.entity.id)).toEqual(['x']);
  });

  it('finds updates that changed nothing', () => {
    const e = entity({ id: 'e1', name: 'Tidepool' });
    const found = unchangedTransitionFindings({
      transitions: [
        transition({ id: 't1', eventTime: 1, fromState: { stage: 'beta' }, toState: { stage: 'beta' } }),
        transition({ id: 't2', eventTime: 2, fromState: { stage: 'beta' }, toState: { stage: 'launched' } }),
        transition({ id: 't3', eventTime: 3, kind: 'creation', fromState: null, toState: {} }),
      ],
      byId: new Map([['e1', e]]),
    });
    expect(found.map((f) => f.detail?.split(':')[0])).toEqual(['t1']);
  });

  it('finds two current values of one attribute unless a contradiction records the conflict', () => {
    const e = entity({ id: 'e', name: 'Maya' });
    const current = [fact('role', 'CEO'), fact('role', 'CTO'), fact('city', 'SF')];
    expect(conflictingFactFindings({ entity: e, current, contradictions: [] }).map((f) => f.why)).toEqual([
      '"Maya" holds 2 current values of role ("CEO" / "CTO") and no contradiction says which',
    ]);
    const flagged = transition({ id: 'c', eventTime: 1, kind: 'contradiction', toState: { role: 'CTO' } });
    expect(conflictingFactFindings({ entity: e, current, contradictions: [flagged] })).toEqual([]);
  });

  it('finds commitments open more than 30 days past due', () => {
    const now = Date.UTC(2025, 5, 1);
    const old = entity({
      id: 'o',
      name: 'send the report',
      type: 'commitment',
      state: { status: 'open', due: '2025-04-01' },
    });
    const recent = entity({
      id: 'r',
      name: 'fix the bug',
      type: 'commitment',
      state: { status: 'open', due: '2025-05-20' },
    });
    const kept = entity({ id: 'k', name: 'ship it', type: 'commitment', state: { status: 'kept', due: '2025-01-01' } });
    expect(staleCommitmentFindings({ entities: [old, recent, kept], now }).map((f) => f.entity.id)).toEqual(['o']);
    expect(staleCommitmentFindings({ entities: [recent], now: now + 30 * DAY })).toHaveLength(1);
  });
});
