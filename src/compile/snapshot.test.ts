import { describe, expect, it } from 'vitest';
import type { Period } from '../domain/world.js';
import type { WorldSnapshot } from '../query/world-at/snapshot.js';
import { periodSpan } from '../query/world-at/span.js';
import { compileSnapshot } from './snapshot.js';
import type { TimeContext, TimeFormat } from './time-format.js';

const T = (iso: string): number => Date.parse(iso);
const NOW = T('2025-11-01T00:00:00Z');
const JUNIOR: Period = {
  entityId: 'p1',
  name: 'junior year at UMD',
  start: T('2024-09-10T14:00:00Z'),
  end: T('2025-05-28T14:00:00Z'),
};
const GAP: Period = { entityId: 'p2', name: 'gap semester', start: T('2025-08-15T14:00:00Z'), end: null };
const time = (format: TimeFormat): TimeContext => ({ now: NOW, tz: 'UTC', format, periods: [JUNIOR, GAP] });

const tidepool = { id: 'e1', name: 'Tidepool', type: 'project', importance: 0.9, tier: 'active' as const };
const maya = { id: 'e2', name: 'Maya Chen', type: 'person', importance: 0.6, tier: 'active' as const };
const notion = { id: 'e3', name: 'Notion', type: 'tool', importance: 0.5, tier: 'active' as const };
const junior = { id: 'p1', name: 'junior year at UMD', type: 'period', importance: 0.5, tier: 'active' as const };

const SNAPSHOT: WorldSnapshot = {
  at: JUNIOR.end ?? 0,
  span: periodSpan({ period: JUNIOR, now: NOW }),
  period: JUNIOR,
  type: null,
  total: 4,
  byType: { project: 1, person: 1, tool: 1, period: 1 },
  byTier: { active: 4, summarized: 0, archived: 0 },
  transitions: 5,
  active: 2,
  limit: 2,
  entities: [
    {
      ...tidepool,
      tier: 'active',
      firstSeen: T('2024-09-10T14:00:00Z'),
      state: { focus: 'study-group app', stage: 'prototype' },
      changes: 1,
      activity: { mentions: 3, changes: 1 },
    },
    {
      ...notion,
      tier: 'active',
      firstSeen: T('2024-09-10T14:00:00Z'),
      state: {},
      changes: 0,
      activity: { mentions: 0, changes: 0 },
    },
  ],
  relationships: [
    {
      id: 'r1',
      type: 'WORKS_ON',
      source: maya,
      target: tidepool,
      properties: { role: 'co-founder' },
      validFrom: T('2024-09-10T14:00:00Z'),
      validTo: null,
    },
    {
      id: 'r2',
      type: 'DURING',
      source: tidepool,
      target: junior,
      properties: {},
      validFrom: T('2024-09-10T14:00:00Z'),
      validTo: null,
    },
    {
      id: 'r3',
      type: 'USES',
      source: tidepool,
      target: notion,
      properties: {},
      validFrom: T('2024-11-05T14:00:00Z'),
      validTo: null,
    },
  ],
};

describe('compileSnapshot', () => {
  it('absolute: exact dates', () => {
    expect(compileSnapshot({ snapshot: SNAPSHOT, time: time('absolute') }).split('\n')).toEqual([
      'World at the end of junior year at UMD, 28 May 2025: 4 entities (period 1, person 1, project 1, tool 1); 5 transitions so far.',
      'Period: junior year at UMD, from 10 September 2024 to 28 May 2025; 2 entities active in this period (mentioned or changed).',
      'The 2 most important of 4:',
      '  • Tidepool (project): focus: study-group app; stage: prototype — 1 change so far; in this period: 3 mentions, 1 change',
      '      ← WORKS_ON Maya Chen (role: co-founder), since 10 September 2024',
      '      → USES Notion, since 5 November 2024',
      '  • Notion (tool) — quiet in this period',
    ]);
  });

  it('semantic: relative times, the period named once in the heading, anchored elsewhere', () => {
    const lines = compileSnapshot({ snapshot: SNAPSHOT, time: time('semantic') }).split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'World at the end of junior year at UMD, about 5 months ago: 4 entities (period 1, person 1, project 1, tool 1); 5 transitions so far.',
      'Period: junior year at UMD, from about 14 months ago to about 5 months ago; 2 entities active in this period (mentioned or changed).',
    ]);
    expect(lines[4]).toBe(
      '      ← WORKS_ON Maya Chen (role: co-founder), since about 14 months ago (during junior year at UMD)',
    );
  });

  it('hybrid: date, relative time and period', () => {
    const lines = compileSnapshot({ snapshot: SNAPSHOT, time: time('hybrid') }).split('\n');
    expect(lines[0]).toBe(
      'World at the end of junior year at UMD, 28 May 2025 (about 5 months ago): 4 entities (period 1, person 1, project 1, tool 1); 5 transitions so far.',
    );
    expect(lines[4]).toBe(
      '      ← WORKS_ON Maya Chen (role: co-founder), since 10 September 2024 (about 14 months ago, during junior year at UMD)',
    );
  });

  it('an ongoing period is read now and said to be ongoing', () => {
    const span = periodSpan({ period: GAP, now: NOW });
    const text = compileSnapshot({
      snapshot: { ...SNAPSHOT, at: span.at, span, period: GAP, active: 0, entities: [], total: 0, byType: {} },
      time: time('hybrid'),
    });
    expect(text.split('\n')).toEqual([
      'World at gap semester so far, 1 November 2025 (today): 0 entities; 5 transitions so far.',
      'Period: gap semester, from 15 August 2025 (about 3 months ago) to now (ongoing); 0 entities active in this period (mentioned or changed).',
      'Nothing was known yet at that time.',
    ]);
  });

  it('now and a date: "as of", no activity line for the present; a type filter is named', () => {
    const now = { kind: 'now' as const, start: NOW, end: NOW + 1, at: NOW, label: 'now' };
    const base = { ...SNAPSHOT, span: now, period: null, at: NOW, active: null, limit: 50 };
    expect(compileSnapshot({ snapshot: { ...base, entities: [] }, time: time('semantic') }).split('\n')[0]).toBe(
      'World as of today (during gap semester): 4 entities (period 1, person 1, project 1, tool 1); 5 transitions so far.',
    );
    const day = {
      kind: 'date' as const,
      start: T('2025-03-20'),
      end: T('2025-03-21'),
      at: T('2025-03-21') - 1,
      label: '2025-03-20',
    };
    const text = compileSnapshot({
      snapshot: {
        ...base,
        span: day,
        at: day.at,
        active: 1,
        type: 'tool',
        total: 1,
        byTier: { active: 4, summarized: 0, archived: 0 },
        byType: { tool: 1 },
        entities: [],
      },
      time: time('absolute'),
    });
    expect(text.split('\n').slice(0, 2)).toEqual([
      'World as of 20 March 2025: 1 entity of type tool; 5 transitions so far.',
      '1 entity active that day (mentioned or changed).',
    ]);
  });
});
