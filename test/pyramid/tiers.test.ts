import { describe, expect, it } from 'vitest';
import { formatLine, parseLines, selectLines, linesForTier } from '../../src/pyramid/lines.js';
import { assignWithoutModel, modelSlug } from '../../src/pyramid/models.js';
import {
  dayNumber,
  dayStart,
  groupByWindow,
  maxTier,
  selectPyramid,
  tierSpanDays,
  windowOf,
} from '../../src/pyramid/tiers.js';

const D = (iso: string): number => Date.parse(iso);

describe('tier arithmetic', () => {
  it.each([
    [0, 1],
    [1, 3],
    [2, 9],
    [3, 27],
    [5, 243],
  ])('tier %i covers %i days', (tier, days) => expect(tierSpanDays(tier)).toBe(days));

  it('rejects a negative or fractional tier', () => {
    expect(() => tierSpanDays(-1)).toThrow(RangeError);
    expect(() => tierSpanDays(1.5)).toThrow(RangeError);
  });

  it.each([
    ['2024-01-01T00:00:00Z', 'UTC', 19723],
    ['2024-01-01T23:59:59Z', 'UTC', 19723],
    ['2024-01-01T23:30:00Z', 'Europe/Berlin', 19724], // already 2 January in Berlin
    ['2024-01-01T03:00:00Z', 'America/New_York', 19722], // still 31 December in New York
  ])('%s in %s is day %i', (iso, tz, day) => expect(dayNumber(D(iso), tz)).toBe(day));

  it.each([
    [19723, 'UTC', '2024-01-01T00:00:00.000Z'],
    [19723, 'Europe/Berlin', '2023-12-31T23:00:00.000Z'],
    [19813, 'America/New_York', '2024-03-31T04:00:00.000Z'], // after the DST change
  ])('day %i starts at local midnight in %s', (day, tz, iso) => {
    expect(new Date(dayStart(day, tz)).toISOString()).toBe(iso);
    expect(dayNumber(dayStart(day, tz), tz)).toBe(day);
  });

  it.each([
    [19723, 0, 19723, 19723],
    [19723, 1, 19722, 19724],
    [19725, 1, 19725, 19727],
    [19723, 2, 19719, 19727],
    [19723, 3, 19710, 19736],
  ])('day %i at tier %i lies in the window %i…%i', (day, tier, first, last) => {
    expect(windowOf(day, tier)).toEqual({ first, last });
  });

  it('tier N+1 windows are made of exactly 3 tier N windows', () => {
    for (let tier = 0; tier < 5; tier += 1) {
      const { first, last } = windowOf(1000, tier + 1);
      const inner = new Set<number>();
      for (let d = first; d <= last; d += 1) inner.add(windowOf(d, tier).first);
      expect(inner.size).toBe(3);
    }
  });

  it.each([
    [10, 10, 0],
    [10, 11, 1],
    [10, 12, 1],
    [10, 13, 2],
    [10, 18, 2],
    [10, 19, 3],
    [0, 364, 6],
  ])('a history from day %i to %i needs tiers up to %i', (first, last, tier) => {
    expect(maxTier(first, last)).toBe(tier);
  });

  it('groups items by window, windows ascending', () => {
    const items = [{ d: 7 }, { d: 1 }, { d: 2 }, { d: 6 }, { d: 3 }];
    expect([...groupByWindow(items, (i) => i.d, 1)]).toEqual([
      [0, [{ d: 1 }, { d: 2 }]],
      [3, [{ d: 3 }]],
      [6, [{ d: 7 }, { d: 6 }]],
    ]);
  });
});

describe('pyramid selection', () => {
  const s = (tier: number, start: number) => ({ tier, start, id: `${tier}-${start}` });
  it.each([
    ['nothing', [], []],
    ['fewer than 3 in a tier', [s(0, 1), s(0, 2)], ['0-1', '0-2']],
    [
      'the last 3 of each tier, highest tier first, each oldest first',
      [s(0, 1), s(0, 5), s(0, 3), s(0, 4), s(1, 0), s(2, 0), s(1, 3), s(1, 6), s(1, 9)],
      ['2-0', '1-3', '1-6', '1-9', '0-3', '0-4', '0-5'],
    ],
  ])('%s', (_label, items, ids) => {
    expect(selectPyramid(items).map((x) => x.id)).toEqual(ids);
  });

  it('takes another count per tier when asked', () => {
    expect(selectPyramid([s(0, 1), s(0, 2), s(0, 3)], 1).map((x) => x.id)).toEqual(['0-3']);
  });
});

describe('summary lines', () => {
  it.each([
    [7, 'User prefers dark mode', '[7] User prefers dark mode'],
    [9, 'Starting a consulting practice', '[9] CRITICAL: Starting a consulting practice'],
    [10, 'ESSENTIAL: allergic to nuts', '[10] ESSENTIAL: allergic to nuts'],
    [0, '  spaced\n out ', '[1] spaced out'],
    [12.4, 'x', '[10] CRITICAL: x'],
  ])('formatLine(%s, %j) = %j', (importance, text, line) => expect(formatLine(importance, text)).toBe(line));

  it('parses "[N] text" lines and drops the rest', () => {
    expect(parseLines('Summary:\n[7] A\n  [5]   B  \n- C\n[11] D', 3)).toEqual([
      { importance: 7, text: 'A', time: 3 },
      { importance: 5, text: 'B', time: 3 },
      { importance: 10, text: 'D', time: 3 },
    ]);
  });

  it('selects the most important lines, merging duplicates, ties in time order', () => {
    const lines = [
      { importance: 5, text: 'Moved to Austin', time: 1 },
      { importance: 8, text: 'Started consulting', time: 2 },
      { importance: 7, text: 'moved to austin.', time: 3 },
      { importance: 5, text: 'Likes coffee', time: 0 },
      { importance: 3, text: 'Watched a film', time: 4 },
    ];
    expect(selectLines(lines, 3)).toEqual([
      { importance: 8, text: 'Started consulting', time: 2 },
      { importance: 7, text: 'moved to austin.', time: 1 },
      { importance: 5, text: 'Likes coffee', time: 0 },
    ]);
    expect(linesForTier(0)).toBe(8);
    expect(linesForTier(9)).toBe(14);
  });
});

describe('models', () => {
  it.each([
    ['Maya Chen', 'maya-chen'],
    ['  Science Research Academy (SRA) ', 'science-research-academy-sra'],
    ['Café Ñandú', 'cafe-nandu'],
    ['!!!', ''],
  ])('modelSlug(%j) = %j', (name, slug) => expect(modelSlug(name)).toBe(slug));

  it.each([
    ['User prefers vim keybindings', null, 'system'],
    ['User relocated to Austin', null, 'user'],
    ["I've learned the user wants short answers", null, 'self'],
    ['Maya joined', { name: 'Maya Chen', type: 'person' }, 'maya-chen'],
    ['Tidepool launched', { name: 'Tidepool', type: 'project' }, 'tidepool'],
    ['Dropped it', { name: 'Neo4j', type: 'tool' }, 'system'],
    ['A belief changed', { name: 'graphs are good', type: 'belief' }, 'user'],
    ['About me', { name: 'User', type: 'person' }, 'user'],
  ])('%j about %j goes to %s', (text, entity, model) => {
    expect(assignWithoutModel({ text }, entity)).toBe(model);
  });

  it('files an entity that does not warrant a model of its own by the other rules', () => {
    expect(assignWithoutModel({ text: 'Maya joined' }, { name: 'Maya Chen', type: 'person' }, false)).toBe('user');
    expect(assignWithoutModel({ text: 'Installed it' }, { name: 'Tidepool', type: 'project' }, false)).toBe('system');
  });
});
