import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/open.js';
import { extractionResultSchema } from '../../src/extract/result.js';
import { ZERO_USAGE } from '../../src/extract/types.js';
import { batchLease, obtainBatch } from '../../src/ingest/batch-claims.js';
import type { Extracted } from '../../src/ingest/extract-one.js';
import { LEASE_TTL_MS } from '../../src/ingest/lease-rules.js';
import { savePrepared, takePrepared } from '../../src/ingest/prepared.js';
import type { WorldStore } from '../../src/ports/world-store.js';

/** Two connections to one database file stand for the applying run and a helper in another process. */
let dir: string;
let applier: WorldStore;
let helper: WorldStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pie-claims-'));
  applier = await openSqliteStore({ path: join(dir, 'pie.db') });
  helper = await openSqliteStore({ path: join(dir, 'pie.db') });
});
afterEach(async () => {
  await applier.close();
  await helper.close();
  rmSync(dir, { recursive: true, force: true });
});

const result = (summary: string): Extracted & { ok: true } => ({
  ok: true,
  result: extractionResultSchema.parse({
    batch: { id: '2024-03-15', date: '2024-03-15T14:00:00Z', episodeIds: ['ep-1'] },
    entities: [{ name: summary, type: 'concept' }],
  }),
  usage: { ...ZERO_USAGE, calls: 1 },
});

function counting(summary: string) {
  let calls = 0;
  return {
    extract: async (): Promise<Extracted> => {
      calls++;
      return result(summary);
    },
    calls: () => calls,
  };
}

const noop = (): void => undefined;

/** The applying run asks for batch `key`, with `extract` as its own model call. */
function obtain(key: string, extract: () => Promise<Extracted>, on = { delegated: noop, returned: noop }) {
  return obtainBatch({
    store: applier,
    key,
    purpose: 'test',
    extract,
    onDelegated: on.delegated,
    onReturned: on.returned,
  });
}

describe('batch claims between the applying run and helpers', () => {
  it('takes a prepared result instead of calling the model, and deletes it', async () => {
    await savePrepared({ store: helper, key: 'k1', extracted: result('by the helper'), now: 1 });
    const own = counting('by the applier');
    const got = obtain('k1', own.extract);
    const { extracted, prepared } = await got.outcome;
    got.release();
    expect(prepared).toBe(true);
    expect(extracted).toMatchObject({
      ok: true,
      result: { entities: [{ name: 'by the helper' }] },
      usage: { calls: 0 },
    });
    expect(own.calls()).toBe(0);
    expect(await takePrepared(applier, 'k1')).toBeNull();
  });

  it('keeps its claim until released, so a helper cannot claim the batch it is applying', async () => {
    const own = counting('mine');
    const got = obtain('k2', own.extract);
    await got.outcome;
    const lease = await helper.leases.get(batchLease('k2'));
    expect(lease?.holder.purpose).toBe('test');
    got.release();
    await new Promise((r) => setTimeout(r, 50));
    expect(await helper.leases.get(batchLease('k2'))).toBeNull();
  });

  it('waits for a live helper that holds the claim and takes what it prepared', async () => {
    const holder = { id: 'helper-1', pid: process.pid, host: hostname(), purpose: 'pie ingest (helping)' };
    const now = Date.now();
    await helper.leases.acquire({ name: batchLease('k3'), holder, now, ttlMs: LEASE_TTL_MS, isDead: () => false });
    const own = counting('mine');
    let delegated = 0;
    let returned = 0;
    const got = obtain('k3', own.extract, { delegated: () => delegated++, returned: () => returned++ });
    await new Promise((r) => setTimeout(r, 300));
    expect(delegated).toBe(1);
    await savePrepared({ store: helper, key: 'k3', extracted: result('helped'), now: 2 });
    await helper.leases.release({ name: batchLease('k3'), holderId: 'helper-1' });
    const { extracted, prepared } = await got.outcome;
    got.release();
    expect(prepared).toBe(true);
    expect(extracted).toMatchObject({ result: { entities: [{ name: 'helped' }] } });
    expect(own.calls()).toBe(0);
    expect(returned).toBe(1);
  });

  it('extracts the batch itself when the helper holding it died (kill -9) without a result', async () => {
    // A process id that cannot exist on this host: the holder is known dead at once.
    const holder = { id: 'dead-helper', pid: 2 ** 22 + 12345, host: hostname(), purpose: 'pie ingest (helping)' };
    await helper.leases.acquire({
      name: batchLease('k4'),
      holder,
      now: Date.now(),
      ttlMs: LEASE_TTL_MS,
      isDead: () => false,
    });
    const own = counting('redone');
    const got = obtain('k4', own.extract);
    const { extracted, prepared } = await got.outcome;
    got.release();
    expect(prepared).toBe(false);
    expect(extracted).toMatchObject({ result: { entities: [{ name: 'redone' }] } });
    expect(own.calls()).toBe(1);
  });
});
