import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { createOfflineExtractor } from '../../src/extract/offline/index.js';
import { importConversations } from '../../src/import/index.js';
import { withLease } from '../../src/ingest/extraction-lease.js';
import { runImportStage } from '../../src/ingest/import-stage.js';
import { SLEEP_LEASE, SLEEP_LEASE_TTL_MS, SLEEP_PURPOSE_PREFIX } from '../../src/ingest/lease-rules.js';
import { runIngest } from '../../src/ingest/pipeline.js';
import { lightConsolidation } from '../../src/metabolism/light.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { ROOT, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'ingest', 'three-days.jsonl');
const NOW = Date.UTC(2025, 5, 1);
const clock = { now: () => NOW };

let dir: { dir: string; cleanup: () => void };
let store: WorldStore;
let n = 0;
const newId = (): string => `id-${++n}`;

beforeEach(async () => {
  dir = tempDir('pie-light-busy-');
  store = await openSqliteStore({ path: join(dir.dir, 'pie.db') });
  const events = importConversations({ path: FIXTURE, format: 'auto', tz: 'UTC' });
  await runImportStage({ store, events, clock, tz: 'UTC', dryRun: false });
});
afterEach(async () => {
  await store.close();
  dir.cleanup();
});

describe('a light consolidation skipped because another sleep runs', () => {
  it('is reported, not counted as done (pie ingest said "Importance recomputed" for it)', async () => {
    const warnings: string[] = [];
    const consolidate = lightConsolidation({ store, now: clock.now, newId, onWarning: (w) => warnings.push(w) });
    // Another sleep holds the sleep lease for the whole ingest.
    const summary = await withLease(
      store,
      SLEEP_LEASE,
      { purpose: `${SLEEP_PURPOSE_PREFIX}pie sleep`, waitMs: 0, ttlMs: SLEEP_LEASE_TTL_MS },
      () =>
        runIngest({
          store,
          extractor: createOfflineExtractor(),
          clock,
          newId,
          source: 'test',
          tz: 'UTC',
          maxBatchTokens: 12_000,
          concurrency: 1,
          consolidate: { every: 1, run: consolidate },
        }),
    );
    expect(summary.batches.done).toBe(3);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toMatch(/^Light consolidation skipped: another sleep is running/);
    expect(summary.consolidations).toBe(0);
    expect(await store.maintenance.list(10)).toEqual([]);
    // With the lease free, the same consolidation runs and says so.
    expect(await consolidate()).toBe(true);
  });
});
