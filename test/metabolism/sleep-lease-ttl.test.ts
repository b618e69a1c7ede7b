import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/open.js';
import { EXTRACTION_LEASE, SLEEP_LEASE, SLEEP_LEASE_TTL_MS } from '../../src/ingest/lease-rules.js';
import { withSleepLease } from '../../src/metabolism/sleep-lease.js';
import type { WorldStore } from '../../src/ports/world-store.js';

/**
 * A sleep writes in one store transaction, during which its lease renewals wait. With the usual one-minute lease, a
 * sleep of more than a minute let an extraction in while it wrote; its leases now live SLEEP_LEASE_TTL_MS.
 */
let dir: string;
let sleeper: WorldStore;
let other: WorldStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pie-sleep-ttl-'));
  sleeper = await openSqliteStore({ path: join(dir, 'pie.db') });
  other = await openSqliteStore({ path: join(dir, 'pie.db') });
});
afterEach(async () => {
  await sleeper.close();
  await other.close();
  rmSync(dir, { recursive: true, force: true });
});

it('holds the sleep and extraction leases long enough that an ingest cannot take them mid-transaction', async () => {
  const seen = await withSleepLease(sleeper, { via: 'test', extraction: 'wait' }, async () => {
    const leases = [await other.leases.get(SLEEP_LEASE), await other.leases.get(EXTRACTION_LEASE)];
    const results = [];
    for (const lease of leases) {
      expect(lease).not.toBeNull();
      expect(lease!.expiresAt - lease!.acquiredAt).toBeGreaterThanOrEqual(SLEEP_LEASE_TTL_MS);
      // Another process (alive) five minutes into the sleep's transaction: the lease is still held.
      const attempt = await other.leases.acquire({
        name: lease!.name,
        holder: { id: 'ingest', pid: process.pid, host: hostname(), purpose: 'pie ingest' },
        now: lease!.acquiredAt + 5 * 60_000,
        ttlMs: 60_000,
        isDead: () => false,
      });
      results.push(attempt.taken);
    }
    return results;
  });
  expect(seen).toEqual([false, false]);
  // Released afterwards.
  expect(await other.leases.get(EXTRACTION_LEASE)).toBeNull();
  expect(await other.leases.get(SLEEP_LEASE)).toBeNull();
});
