import { describe, expect, it } from 'vitest';
import type { Period } from '../domain/world.js';
import type { Contradiction, StateContradiction } from '../query/world-at/contradictions.js';
import { changeBracket, changeText, compileContradictions } from './contradictions.js';
import type { TimeContext, TimeFormat } from './time-format.js';

const T = (iso: string): number => Date.parse(iso);
const NOW = T('2025-11-01T00:00:00Z');
const GAP: Period = {
  entityId: 'p2',
  name: 'gap semester',
  start: T('2025-08-15T14:00:00Z'),
  end: T('2025-10-02T14:00:00Z'),
};
const time = (format: TimeFormat): TimeContext => ({ now: NOW, tz: 'UTC', format, periods: [GAP] });
const AUG = T('2025-08-15T14:00:00Z');

const tidepool = { id: 'e1', name: 'Tidepool', type: 'project', importance: 0.9, tier: 'active' as const };
const kg = { id: 'e5', name: 'knowledge graphs win', type: 'belief', importance: 0.5, tier: 'active' as const };
const hybrid = { id: 'e6', name: 'hybrid retrieval wins', type: 'belief', importance: 0.5, tier: 'active' as const };
const source = { episodeId: 'conv-5', title: 'Tidepool pivots', time: AUG };

const PIVOT: StateContradiction = {
  kind: 'state',
  transitionId: 't1',
  entity: tidepool,
  from: { focus: 'study groups' },
  to: { focus: 'lab notes' },
  summary: 'Pivoted to labs',
  time: AUG,
  confidence: 0.9,
  source,
  resolved: false,
  resolution: null,
  contradictedBy: null,
};
const BELIEF: StateContradiction = {
  ...PIVOT,
  transitionId: 't2',
  entity: kg,
  from: { stance: 'held' },
  to: { stance: 'abandoned' },
  summary: 'No longer believed',
  contradictedBy: hybrid,
};
const EDGE: Contradiction = {
  kind: 'edge',
  relationshipId: 'r1',
  source: hybrid,
  target: kg,
  time: AUG,
  ended: null,
  resolved: false,
  episode: null,
};

describe('compileContradictions', () => {
  it('absolute: entity, time, summary, from → to, the other belief, the source conversation', () => {
    expect(
      compileContradictions({ contradictions: [PIVOT, BELIEF, EDGE], time: time('absolute') }).split('\n'),
    ).toEqual([
      '3 unresolved contradictions:',
      '  • Tidepool (project), 15 August 2025: Pivoted to labs [focus: study groups → lab notes]',
      '      Source: “Tidepool pivots”, 15 August 2025.',
      '  • “knowledge graphs win” (belief), 15 August 2025: No longer believed [stance: held → abandoned]; contradicted by “hybrid retrieval wins”',
      '      Source: “Tidepool pivots”, 15 August 2025.',
      '  • “hybrid retrieval wins” contradicts “knowledge graphs win”, open since 15 August 2025',
    ]);
  });

  it('semantic and hybrid times', () => {
    expect(compileContradictions({ contradictions: [PIVOT], time: time('semantic') }).split('\n')[1]).toBe(
      '  • Tidepool (project), about 3 months ago (during gap semester): Pivoted to labs [focus: study groups → lab notes]',
    );
    expect(compileContradictions({ contradictions: [PIVOT], time: time('hybrid') }).split('\n')[2]).toBe(
      '      Source: “Tidepool pivots”, 15 August 2025 (about 3 months ago, during gap semester).',
    );
  });

  it('--all marks resolved ones and says how they were resolved', () => {
    const resolved: StateContradiction = {
      ...PIVOT,
      resolved: true,
      resolution: { transitionId: 't9', summary: 'Settled on lab notes', time: T('2025-10-02T14:00:00Z') },
    };
    const closed: Contradiction = { ...EDGE, ended: T('2025-10-02T14:00:00Z'), resolved: true };
    expect(
      compileContradictions({ contradictions: [BELIEF, resolved, closed], all: true, time: time('absolute') }).split(
        '\n',
      ),
    ).toEqual([
      '3 contradictions (2 resolved, 1 open):',
      '  • “knowledge graphs win” (belief), 15 August 2025: No longer believed [stance: held → abandoned]; contradicted by “hybrid retrieval wins”',
      '      Source: “Tidepool pivots”, 15 August 2025.',
      '  • Tidepool (project), 15 August 2025: Pivoted to labs [focus: study groups → lab notes]',
      '      Source: “Tidepool pivots”, 15 August 2025.',
      '      ✓ Resolved 2 October 2025: Settled on lab notes',
      '  • “hybrid retrieval wins” contradicts “knowledge graphs win”, from 15 August 2025, closed 2 October 2025',
      '      ✓ Resolved.',
    ]);
  });

  it('nothing to report', () => {
    expect(compileContradictions({ contradictions: [], time: time('absolute') })).toBe('No unresolved contradictions.');
    expect(compileContradictions({ contradictions: [], entity: 'Tidepool', all: true, time: time('absolute') })).toBe(
      'No contradictions about Tidepool.',
    );
    expect(compileContradictions({ contradictions: [PIVOT], entity: 'Tidepool', time: time('absolute') })).toMatch(
      /^1 unresolved contradiction about Tidepool:\n/,
    );
  });

  it.each([
    [{ focus: 'a' }, { focus: 'b' }, 'focus: a → b'],
    [null, { stage: 'beta' }, 'stage: ∅ → beta'],
    [{ x: '' }, { x: 'y', z: null }, 'x: ∅ → y; z: ∅ → ∅'],
  ])('changeText(%j, %j) = %s', (from, to, text) => {
    expect(changeText(from, to)).toBe(text);
  });
});

describe('changeBracket', () => {
  it('shows what changed after a summary, unless the summary is that change', () => {
    expect(changeBracket('Paused', { status: 'active' }, { status: 'paused' })).toBe(' [status: active → paused]');
    expect(changeBracket('relation: sister → friend', { relation: 'sister' }, { relation: 'friend' })).toBe('');
    expect(changeBracket('Nothing', null, {})).toBe('');
  });
});
