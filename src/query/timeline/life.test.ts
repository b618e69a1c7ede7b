import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../adapters/store/sqlite/index.js';
import type { Entity } from '../../domain/world.js';
import { applyResultsFile } from '../../ingest/apply-file.js';
import type { WorldStore } from '../../ports/world-store.js';
import { attributeHistory } from './attributes.js';
import { buildLifeTimeline, stackBands } from './life.js';
import { markSource } from './source.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/history/world.jsonl', import.meta.url));
const T = (iso: string): number => Date.parse(iso);
const NOW = T('2025-11-01T00:00:00Z');
const DAY = 86_400_000;

let dir: string;
let store: WorldStore;
const byName = new Map<string, Entity>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pie-life-timeline-'));
  store = await openSqliteStore({ path: join(dir, 'pie.db') });
  const report = await applyResultsFile({ store, path: FIXTURE, clock: { now: () => NOW }, newId: randomUUID });
  expect(report.applied).toBe(7);
  for (const e of await store.entities.list({})) byName.set(e.name, e);
  // Importance decides the lanes: make the order known.
  const rank = ['Tidepool', 'User', 'Maya Chen', 'Firebase', 'junior year at UMD'];
  for (const [i, name] of rank.entries()) {
    await store.entities.update(entity(name).id, { importance: 0.99 - i * 0.01, updatedAt: NOW });
  }
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function entity(name: string): Entity {
  const e = byName.get(name);
  if (!e) throw new Error(`no ${name} in the fixture`);
  return e;
}

const build = (extra: Partial<Parameters<typeof buildLifeTimeline>[0]> = {}) =>
  buildLifeTimeline({ store, now: NOW, limit: 30, marksPerLane: 60, ...extra });

describe('buildLifeTimeline', () => {
  it('draws the periods as bands and the most important entities (never a period) as lanes', async () => {
    const t = await build({ limit: 3 });
    expect(t.periods.map((p) => [p.name, p.row, p.ongoing])).toEqual([
      ['junior year at UMD', 0, false],
      ['gap semester in San Francisco', 0, false],
    ]);
    // The period is more important than Firebase but is a band, not a lane.
    expect(t.lanes.map((l) => l.entity.name)).toEqual(['Tidepool', 'User', 'Maya Chen']);
    expect(t.types.map((x) => x.type)).not.toContain('period');
    expect(t.types.find((x) => x.type === 'tool')?.count).toBe(5);
    expect(t.start).toBe(T('2024-06-10T14:00:00Z'));
    expect(t.end).toBe(T('2025-10-02T14:00:00Z'));
  });

  it("marks each change of a lane's state in time order, the pivot as an unresolved contradiction", async () => {
    const tidepool = (await build()).lanes.find((l) => l.entity.name === 'Tidepool');
    expect(tidepool?.marks.map((m) => [m.kind, m.attributes, m.contradiction, m.unresolved, m.episodeId])).toEqual([
      ['creation', ['stage', 'focus'], false, false, 'conv-1'],
      ['update', ['stage'], false, false, 'conv-2'],
      ['contradiction', ['focus'], true, true, 'conv-5'],
      ['update', ['stage'], false, false, 'conv-6'],
    ]);
    expect([tidepool?.marksTotal, tidepool?.contradictions]).toEqual([4, 1]);
  });

  it('filters by kind, by attribute and by period', async () => {
    expect((await build({ type: 'project' })).lanes.map((l) => l.entity.name)).toEqual(['Tidepool']);

    const stage = await build({ attribute: 'stage' });
    expect(stage.lanes.map((l) => l.entity.name)).toEqual(['Tidepool']);
    expect(stage.lanes[0]?.marks.map((m) => m.summary)).toEqual([
      'First mentioned in “Tidepool kickoff with Maya”',
      'Built the first prototype',
      'Opened the beta to three labs',
    ]);
    expect(stage.attributes.map((a) => a.name)).toEqual(expect.arrayContaining(['stage', 'focus', 'stance']));

    const gap = await build({ period: 'SF gap semester' });
    expect(gap.period?.name).toBe('gap semester in San Francisco');
    expect([gap.start, gap.end]).toEqual([T('2025-08-15T14:00:00Z'), T('2025-10-02T14:00:00Z') + 1]);
    const marks = gap.lanes.flatMap((l) => l.marks);
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((m) => m.time >= gap.start && m.time < gap.end)).toBe(true);
    // Anki changed before the gap semester only: not a lane of it.
    expect(gap.lanes.map((l) => l.entity.name)).not.toContain('Anki');
    expect(gap.lanes.find((l) => l.entity.name === 'Tidepool')?.marks.map((m) => m.kind)).toEqual([
      'contradiction',
      'update',
    ]);
  });

  it('refuses an unknown period with the closest names', async () => {
    await expect(build({ period: 'Antarctica expedition' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      details: { suggestions: expect.arrayContaining(['junior year at UMD']) },
    });
  });

  it('caps a busy lane: its contradictions kept (up to half the cap), the other changes sampled over its whole life', async () => {
    const firebase = entity('Firebase');
    const start = T('2025-01-01T00:00:00Z');
    for (let i = 0; i < 400; i++) {
      const contradiction = i % 100 === 50;
      await store.transitions.insert({
        id: `busy-${i}`,
        entityId: firebase.id,
        kind: contradiction ? 'contradiction' : 'update',
        fromState: { plan: `p${i}` },
        toState: { plan: `p${i + 1}` },
        summary: `plan ${i + 1}`,
        eventTime: start + i * DAY,
        recordedAt: NOW,
        confidence: 0.9,
        episodeId: null,
        batchId: null,
        resolvedBy: null,
      });
    }
    const lane = (await build({ marksPerLane: 40 })).lanes.find((l) => l.entity.name === 'Firebase');
    expect(lane?.marksTotal).toBe(401);
    expect(lane?.contradictions).toBe(4);
    const marks = lane?.marks ?? [];
    expect(marks.length).toBeLessThanOrEqual(40);
    expect(marks.length).toBeGreaterThan(30);
    expect(marks.filter((m) => m.contradiction).map((m) => m.summary)).toEqual([
      'plan 51',
      'plan 151',
      'plan 251',
      'plan 351',
    ]);
    // Spread over the lane's life, in time order.
    expect(marks[0]?.time).toBeLessThan(start + 20 * DAY);
    expect(marks.at(-1)?.time).toBeGreaterThan(start + 370 * DAY);
    expect(marks.map((m) => m.time)).toEqual([...marks.map((m) => m.time)].sort((a, b) => a - b));

    // Contradictions never take more than half the marks: spread over the lane too.
    const small = (await build({ marksPerLane: 6 })).lanes.find((l) => l.entity.name === 'Firebase')?.marks ?? [];
    expect(small).toHaveLength(6);
    expect(small.filter((m) => m.contradiction).map((m) => m.summary)).toEqual(['plan 51', 'plan 251', 'plan 351']);
  });
});

describe('stackBands', () => {
  it('puts an overlapping period on the next free row, an ongoing one until now', () => {
    const bands = stackBands(
      [
        { entityId: 'a', name: 'college', start: 0, end: 100 },
        { entityId: 'b', name: 'internship', start: 50, end: 70 },
        { entityId: 'c', name: 'first job', start: 100, end: null },
        { entityId: 'd', name: 'summer', start: 80, end: 90 },
      ],
      200,
    );
    expect(bands.map((b) => [b.name, b.row, b.ongoing])).toEqual([
      ['college', 0, false],
      ['internship', 1, false],
      ['summer', 1, false],
      ['first job', 0, true],
    ]);
  });
});

describe('markSource and attributeHistory', () => {
  it('previews a change with the turn of its conversation that names what changed', async () => {
    const pivot = (await build()).lanes.find((l) => l.entity.name === 'Tidepool')?.marks[2];
    await store.episodes.upsert({
      id: 'conv-5',
      contentHash: 'with-turns',
      recordedAt: NOW,
      conversation: {
        source: 'manual',
        externalId: 'conv-5',
        title: 'Tidepool pivots',
        createdAt: T('2025-08-15T14:00:00Z'),
        updatedAt: T('2025-08-15T14:00:00Z'),
        model: null,
        turns: [
          { role: 'user', text: 'Morning! Long week ahead.', time: null },
          { role: 'assistant', text: 'Sounds busy.', time: null },
          {
            role: 'user',
            text: `We are turning Tidepool into a research-notes tool for labs. ${'x '.repeat(300)}`,
            time: null,
          },
        ],
      },
    });
    const s = await markSource({ store, transitionId: pivot?.id ?? '' });
    expect(s).toMatchObject({ kind: 'contradiction', contradiction: true, entity: { name: 'Tidepool' } });
    expect(s.to).toEqual({ focus: 'research-notes tool for labs' });
    expect(s.episode?.title).toBe('Tidepool pivots');
    expect(s.turn?.seq).toBe(2);
    expect(s.turn?.text.startsWith('We are turning Tidepool into a research-notes tool')).toBe(true);
    expect(s.turn?.truncated).toBe(true);
    expect(s.turn?.text.length).toBeLessThan(340);
    await expect(markSource({ store, transitionId: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('tells how each attribute changed, from its facts', async () => {
    const h = await attributeHistory({ store, entityId: entity('Tidepool').id, perAttribute: 10, maxAttributes: 10 });
    const stage = h.lanes.find((l) => l.attribute === 'stage');
    expect(stage?.values.map((v) => [v.value, v.to === null])).toEqual([
      ['idea', false],
      ['prototype', false],
      ['beta', true],
    ]);
    expect(stage?.values[1]?.from).toBe(T('2024-11-05T14:00:00Z'));
    expect(h.lanes.map((l) => l.attribute)).toEqual(['stage', 'focus']);
  });
});
