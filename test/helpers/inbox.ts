import { compose } from '../../src/compose.js';
import { loadConfig } from '../../src/config/config.js';
import type { WorldStore } from '../../src/ports/world-store.js';

/** The tests' "now" (2025-11-01), as the sample is ingested. */
export const NOW_MS = Date.UTC(2025, 10, 1);

/** The near miss ingestion leaves for review next to the sample's "University of Maryland" (the resolver's own). */
export const NEAR_MISS = 'Univ of Maryland';

/**
 * What the bundled sample lacks for the inbox, added through the store as ingestion and queries add it: a merge pair
 * ingestion left for review (NEAR_MISS, which the resolver does not take for "University of Maryland" but sends to
 * review — resolver tests), a sleep task to review a stale entity (left by a query) and a junk entity the audit
 * archives safely (a pronoun).
 */
export async function seedInbox(store: WorldStore): Promise<{ taskId: string; junkId: string }> {
  const [maya] = await store.entities.findByKey('maya chen');
  const [maryland] = await store.entities.findByKey('university of maryland');
  if (!maya || !maryland) throw new Error('the sample has no Maya Chen or University of Maryland');
  const nearMiss = await store.entities.insert({
    id: 'seed-near-miss',
    type: 'organization',
    name: NEAR_MISS,
    state: {},
    firstSeen: NOW_MS,
    lastSeen: NOW_MS,
    createdFrom: maryland.createdFrom,
    recordedAt: NOW_MS,
  });
  await store.tasks.leave({
    id: 'seed-merge-maryland',
    action: 'merge_duplicates',
    subjectIds: [nearMiss.id, maryland.id],
    payload: { name: NEAR_MISS },
    priority: 60,
    source: 'ingest',
    reason: `"${NEAR_MISS}" was close to an existing entity but not merged`,
    createdAt: NOW_MS,
  });
  const taskId = 'seed-stale-maya';
  await store.tasks.leave({
    id: taskId,
    action: 'review_stale_entity',
    subjectIds: [maya.id],
    payload: { importance: maya.importance, daysUnseen: 100 },
    priority: 40,
    source: 'query',
    reason: `"${maya.name}" was retrieved but not referenced for 100 days`,
    createdAt: NOW_MS,
  });
  const junk = await store.entities.insert({
    id: 'seed-junk-they',
    type: 'person',
    name: 'they',
    state: {},
    firstSeen: NOW_MS,
    lastSeen: NOW_MS,
    createdFrom: null,
    recordedAt: NOW_MS,
  });
  return { taskId, junkId: junk.id };
}

/** `seedInbox` on the database file `db` (opened and closed here, as `pie` would). */
export async function seedInboxDb(db: string): Promise<Awaited<ReturnType<typeof seedInbox>>> {
  const env = { PIE_TZ: 'UTC' };
  const config = loadConfig({ flags: { db, now: '2025-11-01', tz: 'UTC' }, env });
  const services = await compose({ config, env });
  try {
    return await seedInbox(services.store);
  } finally {
    await services.close();
  }
}
