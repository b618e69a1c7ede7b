import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../adapters/store/sqlite/index.js';
import { applyResultsFile } from '../../ingest/apply-file.js';
import type { WorldStore } from '../../ports/world-store.js';
import { listContradictions } from './contradictions.js';
import { diffWorld } from './diff.js';
import { snapshotAt } from './snapshot.js';
import { resolveSpan, type Span } from './span.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/history/world.jsonl', import.meta.url));
const T = (iso: string): number => Date.parse(iso);
const NOW = T('2025-11-01T00:00:00Z');
const KG = 'knowledge graphs beat pure vector search';
const HYBRID = 'hybrid retrieval beats knowledge graphs alone';

let dir: string;
let store: WorldStore;
let junior: Span;
let gap: Span;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pie-world-at-'));
  store = await openSqliteStore({ path: join(dir, 'pie.db') });
  const report = await applyResultsFile({ store, path: FIXTURE, clock: { now: () => NOW }, newId: randomUUID });
  expect(report.applied).toBe(7);
  const periods = await store.periods.list();
  junior = resolveSpan({ text: 'junior year at UMD', periods, now: NOW, tz: 'UTC' });
  gap = resolveSpan({ text: 'SF gap semester', periods, now: NOW, tz: 'UTC' });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const names = (list: { name: string }[]): string[] => list.map((e) => e.name).sort();

describe('snapshotAt', () => {
  it('at the end of the first period: what existed then, in its state then, with its relationships then', async () => {
    const s = await snapshotAt({ store, at: junior.at, span: junior });
    expect(s.at).toBe(T('2025-05-28T14:00:00Z'));
    expect(s.period?.name).toBe('junior year at UMD');
    expect(s.total).toBe(8);
    expect(names(s.entities)).toEqual(
      ['Anki', 'Firebase', 'Maya Chen', 'Notion', 'Tidepool', 'User', KG, 'junior year at UMD'].sort(),
    );
    const tidepool = s.entities.find((e) => e.name === 'Tidepool');
    expect(tidepool).toMatchObject({
      state: { stage: 'prototype', focus: 'study-group app for students' },
      changes: 1,
      activity: { mentions: 3, changes: 1 },
    });
    expect(s.entities.find((e) => e.name === KG)?.state.stance).toBe('held');
    expect(s.entities.find((e) => e.name === 'Anki')?.activity).toEqual({ mentions: 0, changes: 0 });
    // Most active first among equally important entities.
    expect(s.entities[0]?.name).toBe('junior year at UMD');
    const edges = s.relationships
      .filter((r) => r.type !== 'DURING')
      .map((r) => `${r.source.name} ${r.type} ${r.target.name}`);
    expect(edges.sort()).toEqual([
      'Maya Chen WORKS_ON Tidepool',
      'Tidepool USES Firebase',
      'User USES Anki',
      'User USES Notion',
      'User WORKS_ON Tidepool',
    ]);
    expect(s.active).toBe(7);
  });

  it('at the end of the second period: the new state, the old belief abandoned, ended relationships gone', async () => {
    const s = await snapshotAt({ store, at: gap.at, span: gap });
    expect(s.total).toBe(12);
    expect(s.entities.find((e) => e.name === 'Tidepool')?.state).toEqual({
      stage: 'beta',
      focus: 'research-notes tool for labs',
    });
    expect(s.entities.find((e) => e.name === KG)?.state.stance).toBe('abandoned');
    expect(s.entities.find((e) => e.name === HYBRID)?.state.stance).toBe('held');
    const edges = s.relationships.map((r) => `${r.source.name} ${r.type} ${r.target.name}`);
    expect(edges).not.toContain('Maya Chen WORKS_ON Tidepool');
    expect(edges).not.toContain('Tidepool USES Firebase');
    expect(edges).toContain('Tidepool USES Supabase');
    expect(edges).toContain(`${HYBRID} CONTRADICTS ${KG}`);
    expect(s.transitions).toBe(16);
  });

  it('a type filter and a limit keep the totals; before anything there is nothing', async () => {
    const tools = await snapshotAt({ store, at: gap.at, type: 'tool', limit: 2 });
    expect(tools).toMatchObject({ total: 5, byType: { tool: 5 }, active: null, span: null });
    expect(tools.entities).toHaveLength(2);
    expect(tools.entities.every((e) => e.activity === null)).toBe(true);
    const early = await snapshotAt({ store, at: T('2024-07-01T00:00:00Z') });
    expect(names(early.entities)).toEqual(['Anki', 'User']);
    expect(await snapshotAt({ store, at: T('2024-01-01T00:00:00Z') })).toMatchObject({ total: 0, transitions: 0 });
  });
});

describe('diffWorld', () => {
  it('lists exactly what changed between the end of the two periods', async () => {
    const d = await diffWorld({ store, a: junior, b: gap });
    expect(d.swapped).toBe(false);
    expect(d.entities).toEqual({ before: 8, after: 12 });
    expect(d.created.items.map((e) => e.name)).toEqual([
      'gap semester in San Francisco',
      HYBRID,
      'Supabase',
      'Obsidian',
    ]);
    expect(d.attributesChanged.items.map((c) => [c.entity.name, c.attribute, c.from, c.to])).toEqual([
      ['Tidepool', 'focus', 'study-group app for students', 'research-notes tool for labs'],
      ['Tidepool', 'stage', 'prototype', 'beta'],
    ]);
    const edge = (r: { source: { name: string }; type: string; target: { name: string } }) =>
      `${r.source.name} ${r.type} ${r.target.name}`;
    expect(d.relationshipsBegun.items.map(edge)).toEqual([
      `${HYBRID} CONTRADICTS ${KG}`,
      'Tidepool USES Supabase',
      'User USES Obsidian',
    ]);
    expect(d.relationshipsEnded.items.map(edge)).toEqual(['Tidepool USES Firebase', 'Maya Chen WORKS_ON Tidepool']);
    expect(d.beliefsReversed.items.map((c) => [c.entity.name, c.from, c.to])).toEqual([
      [KG, { stance: 'held' }, { stance: 'abandoned' }],
    ]);
    expect(d.contradictions.items.map((c) => c.entity.name)).toEqual(['Tidepool']);
    expect(d.goneQuiet.items.map((x) => x.entity.name)).toEqual(['Notion']);
    expect(d.newlyActive.items.map((x) => x.entity.name)).toEqual(['Anki']);
  });

  it('B before A: swapped, and said so', async () => {
    const d = await diffWorld({ store, a: gap, b: junior, limit: 1 });
    expect(d.swapped).toBe(true);
    expect(d.a.label).toBe('junior year at UMD');
    expect(d.created).toMatchObject({ total: 4, items: [{ name: 'gap semester in San Francisco' }] });
  });
});

describe('listContradictions', () => {
  it('unresolved contradictions with their source; the CONTRADICTS edge of a replaced belief is told with it', async () => {
    const list = await listContradictions({ store });
    expect(list.map((c) => (c.kind === 'state' ? [c.entity.name, c.summary, c.source?.title] : [c.kind]))).toEqual([
      [KG, `No longer believed; replaced by: ${HYBRID}`, 'Tidepool pivots to research labs'],
      [
        'Tidepool',
        'Pivoted from a study-group app for students to a research-notes tool for labs',
        'Tidepool pivots to research labs',
      ],
    ]);
    expect(list[0]).toMatchObject({ kind: 'state', contradictedBy: { name: HYBRID }, resolved: false });
    expect((await listContradictions({ store, entityName: 'tidepool' })).map((c) => c.kind)).toEqual(['state']);
    await expect(listContradictions({ store, entityName: 'Tidpool' })).rejects.toThrow(/Did you mean "Tidepool"/);
  });

  // Writes to the shared world: kept last.
  it('a resolved contradiction leaves the default list and is marked (with its resolution) under all', async () => {
    const tidepool = (await store.transitions.list({ kind: 'contradiction' })).find((t) =>
      t.summary.startsWith('Pivoted'),
    );
    if (!tidepool) throw new Error('expected the pivot');
    await store.transitions.insert({
      ...tidepool,
      id: 'resolution-1',
      kind: 'resolution',
      summary: 'Settled on the research-notes tool',
      eventTime: T('2025-10-20T12:00:00Z'),
      resolvedBy: null,
    });
    await store.transitions.markResolved({ id: tidepool.id, resolvedBy: 'resolution-1' });
    expect((await listContradictions({ store })).map((c) => (c.kind === 'state' ? c.entity.name : c.kind))).toEqual([
      KG,
    ]);
    const all = await listContradictions({ store, all: true });
    expect(all.map((c) => [c.kind === 'state' ? c.entity.name : c.kind, c.resolved])).toEqual([
      [KG, false],
      ['Tidepool', true],
    ]);
    expect(all[1]).toMatchObject({
      resolution: { transitionId: 'resolution-1', summary: 'Settled on the research-notes tool' },
    });
  });
});
