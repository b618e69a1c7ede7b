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
import { diffWorld } from './diff.js';
import { snapshotAt } from './snapshot.js';
import { resolveSpan, type Span } from './span.js';

/**
 * History is never rewritten: archiving or summarizing an entity today must not change a snapshot or a diff of the
 * past.
 */
const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/history/world.jsonl', import.meta.url));
const T = (iso: string): number => Date.parse(iso);
const NOW = T('2025-11-01T00:00:00Z');
const ARCHIVED = T('2025-10-20T00:00:00Z');

let dir: string;
let store: WorldStore;
let junior: Span;
let gap: Span;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pie-world-at-archived-'));
  store = await openSqliteStore({ path: join(dir, 'pie.db') });
  await applyResultsFile({ store, path: FIXTURE, clock: { now: () => NOW }, newId: randomUUID });
  const periods = await store.periods.list();
  junior = resolveSpan({ text: 'junior year at UMD', periods, now: NOW, tz: 'UTC' });
  gap = resolveSpan({ text: 'SF gap semester', periods, now: NOW, tz: 'UTC' });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function named(name: string): Promise<Entity> {
  const [e] = await store.entities.findByKey(name.toLowerCase());
  if (!e) throw new Error(`no ${name}`);
  return e;
}

/** Archives as the sleep cycle does: an archival transition at that time, then the tier. */
async function archive(entity: Entity, at: number): Promise<void> {
  await store.transitions.insert({
    id: `archival-${entity.id}`,
    entityId: entity.id,
    kind: 'archival',
    fromState: entity.state,
    toState: entity.state,
    summary: 'Archived: not referenced for a long time.',
    eventTime: at,
    recordedAt: at,
    confidence: 1,
    episodeId: null,
    batchId: null,
    resolvedBy: null,
  });
  await store.entities.update(entity.id, { tier: 'archived', updatedAt: at });
}

/** Summarizes as the sleep cycle does: a summary transition, then the tier. */
async function summarize(entity: Entity, at: { eventTime: number; recordedAt: number }): Promise<void> {
  await store.transitions.insert({
    id: `summary-${entity.id}`,
    entityId: entity.id,
    kind: 'summary',
    fromState: null,
    toState: entity.state,
    summary: 'Several changes, condensed.',
    ...at,
    confidence: 1,
    episodeId: null,
    batchId: null,
    resolvedBy: null,
  });
  await store.entities.update(entity.id, { tier: 'summarized', updatedAt: at.recordedAt });
}

describe('archived entities in the past', () => {
  it('a past snapshot and a past diff are the same before and after a later archive', async () => {
    const snapshotBefore = await snapshotAt({ store, at: junior.at, span: junior });
    const diffBefore = await diffWorld({ store, a: junior, b: gap });
    expect(snapshotBefore.entities.map((e) => e.name)).toContain('Anki');
    expect(diffBefore.created.items.map((e) => e.name)).toContain('Obsidian');

    await archive(await named('Anki'), ARCHIVED);
    // Archived without an archival transition (as a KIP link proxy is): its last change is when.
    await store.entities.update((await named('Obsidian')).id, { tier: 'archived', updatedAt: ARCHIVED });

    expect(await snapshotAt({ store, at: junior.at, span: junior })).toEqual(snapshotBefore);
    expect(await diffWorld({ store, a: junior, b: gap })).toEqual(diffBefore);
  });

  it('from its archival on, an archived entity is still in the world, as archived (a tier, not an end)', async () => {
    const now = await snapshotAt({ store, at: NOW });
    expect(now.entities.find((e) => e.name === 'Anki')).toMatchObject({ tier: 'archived' });
    expect(now.entities.find((e) => e.name === 'Obsidian')).toMatchObject({ tier: 'archived' });
    expect(now.byTier.archived).toBe(2);
    const justBefore = await snapshotAt({ store, at: ARCHIVED - 1 });
    expect(justBefore.entities.find((e) => e.name === 'Anki')).toMatchObject({ tier: 'active' });
    const present = resolveSpan({ text: 'now', periods: await store.periods.list(), now: NOW, tz: 'UTC' });
    const gapToNow = await diffWorld({ store, a: gap, b: present });
    expect(gapToNow.entities.after).toBe(gapToNow.entities.before + gapToNow.created.total);
  });

  it('summarized by a later sleep: the past reads as it was, counts included; from the sleep on, summarized', async () => {
    const tidepool = await named('Tidepool');
    const before = await snapshotAt({ store, at: junior.at, span: junior });
    expect(before.entities.find((e) => e.name === 'Tidepool')).toMatchObject({ tier: 'active' });
    // As the sleep writes it: dated at the last change it summarizes, recorded when the sleep ran.
    await summarize(tidepool, { eventTime: T('2024-12-01T00:00:00Z'), recordedAt: ARCHIVED });
    expect(await snapshotAt({ store, at: junior.at, span: junior })).toEqual(before);
    const now = await snapshotAt({ store, at: NOW });
    expect(now.entities.find((e) => e.name === 'Tidepool')).toMatchObject({ tier: 'summarized' });
  });

  it('summarized by a sleep whose clock was set in the past: not before the last change it summarizes', async () => {
    const last = T('2025-03-20T14:00:00Z');
    await summarize(await named('Notion'), { eventTime: last, recordedAt: T('2020-01-01T00:00:00Z') });
    const tierOf = async (at: number) =>
      (await snapshotAt({ store, at })).entities.find((e) => e.name === 'Notion')?.tier;
    expect(await tierOf(last - 1)).toBe('active');
    expect(await tierOf(last)).toBe('summarized');
  });
});
