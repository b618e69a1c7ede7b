import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/open.js';
import { isPieError } from '../../src/domain/errors.js';
import { withExtractionLease } from '../../src/ingest/extraction-lease.js';
import { EXTRACTION_LEASE, LEASE_TTL_MS, describeHolder, holderIsDead } from '../../src/ingest/lease-rules.js';
import type { WorldStore } from '../../src/ports/world-store.js';

/** Two connections to one database file stand for two processes. */
let dir: string;
let a: WorldStore;
let b: WorldStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pie-lease-'));
  a = await openSqliteStore({ path: join(dir, 'pie.db') });
  b = await openSqliteStore({ path: join(dir, 'pie.db') });
});
afterEach(async () => {
  await a.close();
  await b.close();
  rmSync(dir, { recursive: true, force: true });
});

const holder = (id: string, pid = process.pid, host = hostname()) => ({ id, pid, host, purpose: `run ${id}` });
const alive = () => false;

describe('lease store', () => {
  it('one holder at a time; renew and release only by the holder', async () => {
    const now = 1_000_000;
    const first = await a.leases.acquire({ name: 'x', holder: holder('1'), now, ttlMs: 100, isDead: alive });
    expect(first.taken).toBe(true);
    const second = await b.leases.acquire({ name: 'x', holder: holder('2'), now: now + 50, ttlMs: 100, isDead: alive });
    expect(second).toMatchObject({ taken: false, lease: { holder: { id: '1' }, expiresAt: now + 100 } });
    expect(await b.leases.renew({ name: 'x', holderId: '2', now: now + 60, ttlMs: 100 })).toBe(false);
    expect(await a.leases.renew({ name: 'x', holderId: '1', now: now + 60, ttlMs: 100 })).toBe(true);
    // Renewed until now + 160: still busy at now + 150.
    expect(
      (await b.leases.acquire({ name: 'x', holder: holder('2'), now: now + 150, ttlMs: 100, isDead: alive })).taken,
    ).toBe(false);
    await b.leases.release({ name: 'x', holderId: '2' });
    expect((await a.leases.get('x'))?.holder.id).toBe('1');
    await a.leases.release({ name: 'x', holderId: '1' });
    expect(await a.leases.get('x')).toBeNull();
  });

  it('an expired lease, or one whose holder is dead, is taken over', async () => {
    const now = 5_000;
    await a.leases.acquire({ name: 'x', holder: holder('1'), now, ttlMs: 100, isDead: alive });
    const expired = await b.leases.acquire({
      name: 'x',
      holder: holder('2'),
      now: now + 100,
      ttlMs: 100,
      isDead: alive,
    });
    expect(expired).toMatchObject({ taken: true, lease: { holder: { id: '2' } } });
    // Holder 1 renewing now finds it lost.
    expect(await a.leases.renew({ name: 'x', holderId: '1', now: now + 101, ttlMs: 100 })).toBe(false);
    const dead = await a.leases.acquire({
      name: 'x',
      holder: holder('3'),
      now: now + 101,
      ttlMs: 100,
      isDead: (h) => h.id === '2',
    });
    expect(dead.taken).toBe(true);
  });
});

describe('lease rules', () => {
  it('a holder is dead only when it ran on this host and its pid is gone', () => {
    const self = { host: 'here', pidAlive: (pid: number) => pid === 7 };
    expect(holderIsDead(holder('1', 7, 'here'), self)).toBe(false);
    expect(holderIsDead(holder('1', 8, 'here'), self)).toBe(true);
    expect(holderIsDead(holder('1', 8, 'elsewhere'), self)).toBe(false);
  });

  it('describes who holds the work and for how long', () => {
    const lease = { name: 'x', holder: holder('1', 42, 'box'), acquiredAt: 0, expiresAt: 60_000 };
    expect(describeHolder(lease, 125_000)).toBe('run 1 (process 42 on box, running for 2 min 5 s)');
    expect(describeHolder(lease, 9_400)).toBe('run 1 (process 42 on box, running for 9 s)');
  });
});

describe('withExtractionLease', () => {
  it('a second run waits for the first, then runs; nothing overlaps', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const waiting: string[] = [];
    const first = withExtractionLease(a, { purpose: 'first' }, async () => {
      order.push('first:start');
      await gate;
      order.push('first:end');
    });
    await new Promise((r) => setTimeout(r, 20));
    const second = withExtractionLease(b, { purpose: 'second', onWaiting: (m) => waiting.push(m) }, async () => {
      order.push('second:start');
    });
    await new Promise((r) => setTimeout(r, 700));
    expect(order).toEqual(['first:start']);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatch(/^Another extraction is running on this database: first \(process \d+ on .*\); waiting/);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first:start', 'first:end', 'second:start']);
    expect(await a.leases.get(EXTRACTION_LEASE)).toBeNull();
  });

  it('waitMs 0 refuses at once with CONFLICT; the lease is released even when the work throws', async () => {
    let refusal: unknown;
    await expect(
      withExtractionLease(a, { purpose: 'first' }, async () => {
        refusal = await withExtractionLease(b, { purpose: 'second', waitMs: 0 }, async () => 'ran').catch((e) => e);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(isPieError(refusal, 'CONFLICT')).toBe(true);
    expect((refusal as Error).message).toMatch(
      /^Another extraction is running on this database: first .*; run again when it has finished\.$/,
    );
    expect(await a.leases.get(EXTRACTION_LEASE)).toBeNull();
  });

  it('a lease left by a dead process on this host is taken over at once; an expired one from elsewhere too', async () => {
    const now = Date.now();
    // pid 2^22 + 1 is above Linux's pid_max default: no such process.
    await a.leases.acquire({
      name: EXTRACTION_LEASE,
      holder: holder('gone', 4_194_305),
      now,
      ttlMs: LEASE_TTL_MS,
      isDead: alive,
    });
    expect(await withExtractionLease(b, { purpose: 'next', waitMs: 0 }, async () => 'ran')).toBe('ran');
    await a.leases.acquire({
      name: EXTRACTION_LEASE,
      holder: holder('far', 1, 'other-host'),
      now: now - LEASE_TTL_MS,
      ttlMs: LEASE_TTL_MS,
      isDead: alive,
    });
    expect(await withExtractionLease(b, { purpose: 'next', waitMs: 0 }, async () => 'ran')).toBe('ran');
  });
});

describe('ingestText beside another extraction', () => {
  it('stores the text, answers CONFLICT in one sentence, and extracts it when sent again', async () => {
    const { ingestText } = await import('../../src/ingest/ingest-text.js');
    const { createOfflineExtractor } = await import('../../src/extract/offline/index.js');
    const other = holder('another-run');
    await a.leases.acquire({
      name: EXTRACTION_LEASE,
      holder: other,
      now: Date.now(),
      ttlMs: LEASE_TTL_MS,
      isDead: alive,
    });
    let n = 0;
    const input = {
      store: b,
      clock: { now: () => Date.UTC(2025, 0, 2) },
      tz: 'UTC',
      newId: () => `id-${++n}`,
      content: 'I started learning the cello with my friend Maya.',
      source: 'test',
      extraction: { extractor: createOfflineExtractor(), description: 'offline rules' },
      leaseWaitMs: 0,
    };
    const refused = await ingestText(input).catch((e: unknown) => e);
    expect(isPieError(refused, 'CONFLICT')).toBe(true);
    expect((refused as Error).message).toMatch(
      /^The text is stored but not extracted yet: another extraction is running on this database: run another-run .*\(Sending it again stores nothing twice; pie ingest also extracts it\.\)$/,
    );
    const stored = await b.episodes.list({ source: 'manual' });
    expect(stored.map((e) => e.extraction)).toEqual(['pending']);
    await a.leases.release({ name: EXTRACTION_LEASE, holderId: other.id });
    const done = await ingestText(input);
    expect(done.outcome).toBe('ingested');
    expect(await b.episodes.list({ source: 'manual' })).toHaveLength(1);
  });
});
