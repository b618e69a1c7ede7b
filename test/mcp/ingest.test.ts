import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTION_LEASE, LEASE_TTL_MS } from '../../src/ingest/lease-rules.js';
import { pieJson } from '../helpers/cli.js';
import { connect, fixtureWorld, G, structured, textOf, type Connected } from './harness.js';

interface IngestOut {
  episodeId: string;
  outcome: string;
  time: string;
  extractor: string;
  counts: Record<string, number>;
  entities: { name: string; type: string; isNew: boolean }[];
  changes: { entity: { name: string }; kind: string; summary: string; to: Record<string, unknown> }[];
}

const NOTE = 'Maya Chen joined Tidepool as CTO. We moved the Tidepool backend to Supabase.';

describe('ingest_episode with the offline extractor', () => {
  let world: Awaited<ReturnType<typeof fixtureWorld>>;
  let mcp: Connected;
  beforeAll(async () => {
    world = await fixtureWorld();
    mcp = await connect({ db: world.db });
  });
  afterAll(async () => {
    await mcp.close();
    world.cleanup();
  });

  it('extracts, resolves and applies the text, dated now, and reports what changed', async () => {
    const before = await mcp.services.store.stats();
    const r = await mcp.call('ingest_episode', { content: `  ${NOTE}\n`, source: 'claude-desktop' });
    const s = structured<IngestOut>(r);
    expect(s).toMatchObject({ outcome: 'ingested', time: '2025-11-01T00:00:00.000Z', extractor: 'offline rules' });
    expect(s.episodeId).toMatch(/^manual:[0-9a-f]{32}$/);
    expect(s.entities).toContainEqual({ id: expect.any(String), name: 'Supabase', type: 'tool', isNew: true });
    expect(s.entities).toContainEqual(expect.objectContaining({ name: 'Maya Chen', isNew: false }));
    expect(s.changes).toContainEqual(
      expect.objectContaining({ entity: expect.objectContaining({ name: 'Maya Chen' }), to: { role: 'CTO' } }),
    );
    expect(s.counts['entity.insert']).toBe(1);
    const text = textOf(r);
    expect(text).toMatch(
      /^Remembered “Maya Chen joined Tidepool as CTO\. We moved the Tidepool backend to Supabase\.” \(manual:/,
    );
    expect(text).toContain('New entities: Supabase (tool).');
    expect(text).toContain('Maya Chen: Maya Chen joined Tidepool as CTO [role: advisor → CTO]');

    const after = await mcp.services.store.stats();
    expect(after.episodes).toBe(before.episodes + 1);
    expect(after.episodesPendingExtraction).toBe(0);
    const episode = await mcp.services.store.episodes.get(s.episodeId);
    expect(episode).toMatchObject({ source: 'manual', extraction: 'extracted', meta: { via: 'claude-desktop' } });
    // The rest of the server sees it at once.
    const maya = structured<{ entity: { state: Record<string, unknown> } }>(
      await mcp.call('get_entity', { name: 'Maya' }),
    );
    expect(maya.entity.state).toEqual({ role: 'CTO' });
  });

  it('is idempotent: the same content again changes nothing', async () => {
    const before = await mcp.services.store.stats();
    const r = await mcp.call('ingest_episode', { content: NOTE });
    const s = structured<IngestOut>(r);
    expect(s.outcome).toBe('unchanged');
    expect(s.counts).toEqual({});
    expect(textOf(r)).toMatch(
      /^Already remembered: this content was ingested before .*; nothing changed\. It is about /,
    );
    const after = await mcp.services.store.stats();
    expect(after).toEqual(before);
  });

  it('runs concurrent calls one after the other, each extracted once', async () => {
    const texts = ['Anki', 'Obsidian', 'Figma', 'Linear', 'Notion'].map((t) => `We started using ${t} for Tidepool.`);
    const results = await Promise.all(texts.map((content) => mcp.call('ingest_episode', { content })));
    for (const r of results) expect(structured<IngestOut>(r).outcome).toBe('ingested');
    expect((await mcp.services.store.stats()).episodesPendingExtraction).toBe(0);
    const ids = results.map((r) => structured<IngestOut>(r).episodeId);
    expect(new Set(ids).size).toBe(5);
    const runs = await mcp.services.store.runs.list(50);
    const batches = (await Promise.all(runs.map((run) => mcp.services.store.runs.batches(run.id)))).flat();
    for (const id of ids) expect(batches.filter((b) => b.episodeIds.includes(id))).toHaveLength(1);
  });

  it('refuses empty and oversized content with what to do instead', async () => {
    const blank = await mcp.call('ingest_episode', { content: ' \n ' });
    expect(blank.isError).toBe(true);
    expect(textOf(blank)).toBe('The content is empty; send the text to remember.');
    const huge = await mcp.call('ingest_episode', { content: 'word '.repeat(20_001) });
    expect(huge.isError).toBe(true);
    expect(textOf(huge)).toContain(
      'longer than 100,000 characters; send it in parts, or import the file with pie ingest',
    );
  });
});

describe('ingest_episode with a model', () => {
  let world: Awaited<ReturnType<typeof fixtureWorld>>;
  let script: string;
  beforeAll(async () => {
    world = await fixtureWorld();
    script = join(world.dir, 'fake.json');
    const answer = {
      entities: [{ name: 'Kestrel', type: 'project', state: { stage: 'idea', focus: 'bird counts' } }],
      relationships: [{ source: 'Maya Chen', target: 'Kestrel', type: 'WORKS_ON', properties: { role: 'designer' } }],
      summary: 'Kestrel started.',
      significance: 0.5,
    };
    writeFileSync(
      script,
      JSON.stringify({ prompts: { 'extract-batch@3': [{ contains: 'starting Kestrel', response: answer }] } }),
    );
  });
  afterAll(() => world.cleanup());

  it('uses the configured model (PIE_LLM) like pie ingest does', async () => {
    const mcp = await connect({ db: world.db, env: { PIE_LLM: `fake:${script}` } });
    try {
      const s = structured<IngestOut>(
        await mcp.call('ingest_episode', { content: 'Maya and I are starting Kestrel, an app for bird counts.' }),
      );
      expect(s.outcome).toBe('ingested');
      expect(s.extractor).toContain('fake:');
      expect(s.entities).toContainEqual(expect.objectContaining({ name: 'Kestrel', type: 'project', isNew: true }));
      const kestrel = await pieJson<{ entity: { state: Record<string, unknown> } }>([
        '--db',
        world.db,
        ...G,
        'entity',
        'Kestrel',
      ]);
      expect(kestrel.entity.state).toEqual({ stage: 'idea', focus: 'bird counts' });
    } finally {
      await mcp.close();
    }
  });

  it('reports a failed extraction as a tool error; the episode is kept and retried when sent again', async () => {
    const mcp = await connect({ db: world.db, env: { PIE_LLM: `fake:${script}` } });
    try {
      const content = 'Something the scripted model has no answer for.';
      const r = await mcp.call('ingest_episode', { content });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(
        /^The text was stored as episode manual:[0-9a-f]+, but extracting it failed \(.+\)\. Sending the same content again retries it/,
      );
      const again = await mcp.call('ingest_episode', { content });
      expect(again.isError).toBe(true);
      const episodes = await mcp.services.store.episodes.list({ source: 'manual', extraction: 'failed' });
      expect(episodes).toHaveLength(1);
    } finally {
      await mcp.close();
    }
  });
});

describe('ingest_episode while another process extracts into the same memory', () => {
  it('stores the text and answers CONFLICT saying so (not as an unexpected failure); sent again, it is extracted', async () => {
    const world = await fixtureWorld();
    const mcp = await connect({ db: world.db, leaseWaitMs: 0 });
    const other = { id: 'another-run', pid: process.pid, host: hostname(), purpose: 'pie ingest export.json' };
    try {
      const held = await mcp.services.store.leases.acquire({
        name: EXTRACTION_LEASE,
        holder: other,
        now: Date.now(),
        ttlMs: LEASE_TTL_MS,
        isDead: () => false,
      });
      expect(held.taken).toBe(true);
      const content = 'Maya Chen started a pottery class on Thursdays.';
      const refused = await mcp.call('ingest_episode', { content });
      expect(refused.isError).toBe(true);
      expect(refused._meta?.['pie/error']).toMatchObject({ code: 'CONFLICT' });
      expect(textOf(refused)).toMatch(
        /^The text is stored but not extracted yet: another extraction is running on this database: pie ingest export\.json .*\(Sending it again stores nothing twice; pie ingest also extracts it\.\)$/,
      );
      expect((await mcp.services.store.episodes.list({ source: 'manual' })).map((e) => e.extraction)).toEqual([
        'pending',
      ]);
      await mcp.services.store.leases.release({ name: EXTRACTION_LEASE, holderId: other.id });
      const again = structured<IngestOut>(await mcp.call('ingest_episode', { content }));
      expect(again.outcome).toBe('ingested');
      expect(await mcp.services.store.episodes.list({ source: 'manual' })).toHaveLength(1);
    } finally {
      await mcp.close();
      world.cleanup();
    }
  });
});
