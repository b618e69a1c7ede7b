import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect, fixtureWorld, structured, textOf, type Connected } from './harness.js';

interface ForgetOut {
  planId: string;
  applied: boolean;
  target: { kind: string; asked: string };
  counts: Record<string, number>;
  entities: { deleted: { name: string }[]; kept: { name: string; otherSources: number }[] };
  compact: { walTruncated: boolean } | null;
}

const errorCode = (r: { _meta?: Record<string, unknown> }): unknown =>
  (r._meta?.['pie/error'] as { code?: string } | undefined)?.code;

let world: Awaited<ReturnType<typeof fixtureWorld>>;
let mcp: Connected;
beforeEach(async () => {
  world = await fixtureWorld();
  mcp = await connect({ db: world.db });
});
afterEach(async () => {
  await mcp.close();
  world.cleanup();
});

const exists = async (name: string): Promise<boolean> =>
  (await mcp.services.store.entities.findByKey(name.toLowerCase())).length > 0;

describe('forget over MCP', () => {
  it('answers the plan without confirm, and applies it when confirmed with its plan id', async () => {
    const before = await mcp.services.store.stats();
    const planned = await mcp.call('forget', { target: 'Neo4j' });
    const plan = structured<ForgetOut>(planned);
    expect(plan).toMatchObject({ applied: false, target: { kind: 'entity', asked: 'Neo4j' }, compact: null });
    expect(plan.planId).toMatch(/^forget-[0-9a-f]{24}$/);
    expect(plan.entities.deleted.map((e) => e.name)).toEqual(['Neo4j']);
    expect(plan.counts.transitions).toBeGreaterThan(0);
    expect(textOf(planned)).toContain(`confirm: "${plan.planId}"`);
    expect(textOf(planned)).toContain('Nothing has been removed.');
    expect(await mcp.services.store.stats()).toEqual(before);
    expect(await exists('Neo4j')).toBe(true);

    const applied = structured<ForgetOut>(await mcp.call('forget', { target: 'Neo4j', confirm: plan.planId }));
    expect(applied).toMatchObject({ applied: true, planId: plan.planId });
    expect(applied.compact).not.toBeNull();
    expect(await exists('Neo4j')).toBe(false);
    const after = await mcp.services.store.stats();
    expect(after.entities).toBe(before.entities - 1);
    expect(after.transitions).toBe(before.transitions - (plan.counts.transitions ?? 0));
    const gone = await mcp.call('get_entity', { name: 'Neo4j' });
    expect(gone.isError).toBe(true);
  });

  it('refuses a stale plan id (CONFLICT) and removes nothing; the new plan applies', async () => {
    const old = structured<ForgetOut>(await mcp.call('forget', { target: 'FalkorDB' }));
    // The memory changes between the plan and the confirmation: another conversation now mentions FalkorDB.
    const note = structured<{ entities: { name: string }[] }>(
      await mcp.call('ingest_episode', { content: 'PIE still runs on FalkorDB and we are happy with it.' }),
    );
    expect(note.entities.map((e) => e.name)).toContain('FalkorDB');
    const before = await mcp.services.store.stats();
    const stale = await mcp.call('forget', { target: 'FalkorDB', confirm: old.planId });
    expect(stale.isError).toBe(true);
    expect(errorCode(stale)).toBe('CONFLICT');
    expect(textOf(stale)).toMatch(/^Nothing was forgotten: the memory changed since plan forget-/);
    expect(textOf(stale)).toContain('Call forget again without confirm');
    expect(await mcp.services.store.stats()).toEqual(before);
    expect(await exists('FalkorDB')).toBe(true);

    const fresh = structured<ForgetOut>(await mcp.call('forget', { target: 'FalkorDB' }));
    expect(fresh.planId).not.toBe(old.planId);
    expect(fresh.counts.mentions).toBeGreaterThan(0);
    expect(structured<ForgetOut>(await mcp.call('forget', { target: 'FalkorDB', confirm: fresh.planId })).applied).toBe(
      true,
    );
    expect(await exists('FalkorDB')).toBe(false);
  });

  it('turns a malformed plan id, an unknown argument or a missing target into a useful error', async () => {
    const malformed = await mcp.call('forget', { target: 'Neo4j', confirm: 'yes' });
    expect(errorCode(malformed)).toBe('INVALID_ARGUMENT');
    expect(textOf(malformed)).toContain('"yes" is not a forget plan id');
    const unknown = await mcp.call('forget', { target: 'Neo4j', confirmed: 'yes' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('forget has no argument "confirmed" (did you mean confirm?)');
    const missing = await mcp.call('forget', { target: 'no such thing anywhere' });
    expect(errorCode(missing)).toBe('NOT_FOUND');
    expect(await exists('Neo4j')).toBe(true);
  });
});

describe('forget with --read-only', () => {
  it('is not listed and cannot be called', async () => {
    const ro = await connect({ db: world.db, readOnly: true });
    try {
      const { tools } = await ro.client.listTools();
      expect(tools.map((t) => t.name)).not.toContain('forget');
      const refused = await ro.call('forget', { target: 'Neo4j' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('Tool forget not found');
      expect((await ro.services.store.entities.findByKey('neo4j')).length).toBe(1);
    } finally {
      await ro.close();
    }
  });
});
