import { describe, expect, it } from 'vitest';
import type { Period } from '../domain/world.js';
import type { WorldDiff } from '../query/world-at/diff-compute.js';
import { periodSpan } from '../query/world-at/span.js';
import { compileDiff, totalChanges } from './diff.js';
import type { TimeContext, TimeFormat } from './time-format.js';

const T = (iso: string): number => Date.parse(iso);
const NOW = T('2025-11-01T00:00:00Z');
const JUNIOR: Period = {
  entityId: 'p1',
  name: 'junior year',
  start: T('2024-09-10T14:00:00Z'),
  end: T('2025-05-28T14:00:00Z'),
};
const GAP: Period = {
  entityId: 'p2',
  name: 'gap semester',
  start: T('2025-08-15T14:00:00Z'),
  end: T('2025-10-02T14:00:00Z'),
};
const time = (format: TimeFormat): TimeContext => ({ now: NOW, tz: 'UTC', format, periods: [JUNIOR, GAP] });

const tidepool = { id: 'e1', name: 'Tidepool', type: 'project', importance: 0.9, tier: 'active' as const };
const maya = { id: 'e2', name: 'Maya Chen', type: 'person', importance: 0.6, tier: 'active' as const };
const notion = { id: 'e3', name: 'Notion', type: 'tool', importance: 0.5, tier: 'active' as const };
const anki = { id: 'e4', name: 'Anki', type: 'tool', importance: 0.5, tier: 'active' as const };
const kg = { id: 'e5', name: 'knowledge graphs win', type: 'belief', importance: 0.5, tier: 'active' as const };
const supabase = { id: 'e6', name: 'Supabase', type: 'tool', importance: 0.5, tier: 'active' as const };
const AUG = T('2025-08-15T14:00:00Z');
const OCT = T('2025-10-02T14:00:00Z');
const none = { total: 0, items: [] };

const DIFF: WorldDiff = {
  a: periodSpan({ period: JUNIOR, now: NOW }),
  b: periodSpan({ period: GAP, now: NOW }),
  swapped: false,
  entities: { before: 8, after: 10 },
  limit: 1,
  created: { total: 2, items: [{ ...supabase, firstSeen: AUG, state: { plan: 'free' } }] },
  attributesChanged: { total: 1, items: [{ entity: tidepool, attribute: 'stage', from: 'prototype', to: 'beta' }] },
  relationshipsBegun: {
    total: 1,
    items: [
      {
        id: 'r1',
        type: 'USES',
        source: tidepool,
        target: supabase,
        properties: {},
        time: AUG,
        since: AUG,
        until: null,
      },
    ],
  },
  relationshipsEnded: {
    total: 1,
    items: [
      {
        id: 'r2',
        type: 'WORKS_ON',
        source: maya,
        target: tidepool,
        properties: { role: 'co-founder' },
        time: OCT,
        since: AUG,
        until: OCT,
      },
    ],
  },
  beliefsReversed: {
    total: 1,
    items: [
      {
        transitionId: 't1',
        entity: kg,
        from: { stance: 'held' },
        to: { stance: 'abandoned' },
        summary: 'No longer believed',
        time: AUG,
        resolved: false,
      },
    ],
  },
  contradictions: {
    total: 1,
    items: [
      {
        transitionId: 't2',
        entity: tidepool,
        from: { focus: 'study groups' },
        to: { focus: 'lab notes' },
        summary: 'Pivoted to labs',
        time: AUG,
        resolved: false,
      },
    ],
  },
  goneQuiet: { total: 1, items: [{ entity: notion, mentionsA: 3, mentionsB: 0, time: T('2025-03-20T14:00:00Z') }] },
  newlyActive: { total: 1, items: [{ entity: anki, mentionsA: 0, mentionsB: 1, time: OCT }] },
};

describe('compileDiff', () => {
  it('absolute: every section, most important first, with "… and N more"', () => {
    expect(compileDiff({ diff: DIFF, time: time('absolute') }).split('\n')).toEqual([
      'Changes from the end of junior year, 28 May 2025, to the end of gap semester, 2 October 2025:',
      'Entities: 8 → 10 (+2).',
      'New (2):',
      '  • Supabase (tool), first seen 15 August 2025: plan: free',
      '  … and 1 more.',
      'State changed (1):',
      '  • Tidepool — stage: prototype → beta',
      'Relationships begun (1):',
      '  • Tidepool USES Supabase, since 15 August 2025',
      'Relationships ended (1):',
      '  • Maya Chen WORKS_ON Tidepool (role: co-founder), ended 2 October 2025',
      'Beliefs reversed (1):',
      '  • “knowledge graphs win”: held → abandoned, 15 August 2025 — No longer believed',
      'Contradictions raised (1):',
      '  • Tidepool (project), 15 August 2025: Pivoted to labs [focus: study groups → lab notes]',
      'Gone quiet (1):',
      '  • Notion (tool): 3 mentions during junior year, none during gap semester; last 20 March 2025',
      'Active again (1):',
      '  • Anki (tool): 1 mention during gap semester, none during junior year; first 2 October 2025',
    ]);
  });

  it('semantic: relative times and periods, no dates', () => {
    const lines = compileDiff({ diff: DIFF, time: time('semantic') }).split('\n');
    expect(lines[0]).toBe(
      'Changes from the end of junior year, about 5 months ago, to the end of gap semester, 30 days ago, about 4 weeks:',
    );
    expect(lines[3]).toBe('  • Supabase (tool), first seen about 3 months ago (during gap semester): plan: free');
    expect(lines.join('\n')).not.toMatch(/\d{4}/);
  });

  it('hybrid: both', () => {
    const lines = compileDiff({ diff: DIFF, time: time('hybrid') }).split('\n');
    expect(lines[0]).toBe(
      'Changes from the end of junior year, 28 May 2025 (about 5 months ago), to the end of gap semester, 2 October 2025 (30 days ago, about 4 weeks):',
    );
    expect(lines[10]).toBe(
      '  • Maya Chen WORKS_ON Tidepool (role: co-founder), ended 2 October 2025 (30 days ago, about 4 weeks, during gap semester)',
    );
  });

  it('swapped ends are said; an empty diff says nothing changed', () => {
    const empty: WorldDiff = {
      ...DIFF,
      swapped: true,
      entities: { before: 8, after: 8 },
      created: none,
      attributesChanged: none,
      relationshipsBegun: none,
      relationshipsEnded: none,
      beliefsReversed: none,
      contradictions: none,
      goneQuiet: none,
      newlyActive: none,
    };
    expect(totalChanges(empty)).toBe(0);
    expect(totalChanges(DIFF)).toBe(9);
    expect(compileDiff({ diff: empty, time: time('absolute') }).split('\n')).toEqual([
      'Changes from the end of junior year, 28 May 2025, to the end of gap semester, 2 October 2025:',
      '(The later one was given first; they are compared in time order.)',
      'Entities: 8 → 8.',
      'Nothing changed between them.',
    ]);
  });
});
