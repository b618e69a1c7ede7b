import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSqliteStore } from '../adapters/store/sqlite/index.js';
import type { WorldStore } from '../ports/world-store.js';
import { transition } from '../query/test-kit.js';
import { loadTimeline } from './timeline.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2023, 4, 8);
let dir = '';
let store: WorldStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pie-timeline-'));
  store = await openSqliteStore({ path: join(dir, 'pie.db') });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function conversation(title: string, at: number): Promise<string> {
  const { id } = await store.episodes.upsert({
    conversation: {
      source: 'manual',
      externalId: title,
      title,
      createdAt: at,
      updatedAt: at,
      model: null,
      turns: [{ role: 'user', text: title, time: at }],
      meta: {},
    },
    contentHash: title,
    recordedAt: at,
  });
  return id;
}

it('lists the sources in the order they were written, though a later one tells of an earlier time', async () => {
  const first = await conversation('session 1', T0);
  const second = await conversation('session 2', T0 + 10 * DAY);
  const third = await conversation('session 3', T0 + 20 * DAY);
  const entity = await store.entities.insert({
    id: 'melanie',
    type: 'person',
    name: 'Melanie',
    state: {},
    firstSeen: T0,
    lastSeen: T0 + 20 * DAY,
    createdFrom: first,
    recordedAt: T0,
  });
  // Session 3 tells of last year; session 2 of its own day; session 1 of its own day.
  const told = [
    { id: 't1', episodeId: third, eventTime: T0 - 300 * DAY },
    { id: 't2', episodeId: first, eventTime: T0 },
    { id: 't3', episodeId: second, eventTime: T0 + 10 * DAY },
  ];
  for (const t of told) await store.transitions.insert(transition({ ...t, entityId: entity.id }));
  const timeline = await loadTimeline({ store, entity });
  // The history is in event time; the sources in the time they were written.
  expect(timeline.transitions.map((t) => t.id)).toEqual(['t1', 't2', 't3']);
  expect(timeline.sources.map((s) => s.title)).toEqual(['session 1', 'session 2', 'session 3']);
});
