import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose } from '../../src/compose.js';
import { loadConfig } from '../../src/config/config.js';
import { SAMPLE, finished, spawnPie } from '../helpers/cli.js';
import { startHttpChild } from '../mcp/child.js';
import { fixtureWorld, G, NOW, textOf } from '../mcp/harness.js';

let world: Awaited<ReturnType<typeof fixtureWorld>>;
let script: string;

beforeAll(async () => {
  world = await fixtureWorld();
  // The writer: `pie ingest` of the sample export through a scripted model that takes 250 ms per daily batch, so
  // its 49 batches keep writing for ~12 s while the server is busy. Every batch mentions "Sample Project".
  script = join(world.dir, 'writer.json');
  const answer = {
    entities: [{ name: 'Sample Project', type: 'project', state: { stage: 'active' } }],
    summary: 'A conversation from the sample export.',
    significance: 0.4,
  };
  writeFileSync(script, JSON.stringify({ delayMs: 250, prompts: { 'extract-batch@3': [{ response: answer }] } }));
});
afterAll(() => world.cleanup());

const READS: [string, Record<string, unknown>][] = [
  ['query_world', { query: 'How has Tidepool changed?' }],
  ['search_memory', { query: 'Neo4j FalkorDB' }],
  ['get_entity', { name: 'Maya' }],
  ['get_entity_timeline', { entity_name: 'Tidepool' }],
  ['get_world_snapshot', { period: 'junior year' }],
  ['diff_periods', { period_a: 'junior year', period_b: 'now' }],
  ['get_contradictions', {}],
  ['list_periods', {}],
  ['get_procedures', {}],
];
const NOTES = ['Anki', 'Obsidian', 'Figma', 'Linear', 'Notion'].map(
  (t) => `Maya and I started using ${t} for Tidepool.`,
);

async function connectHttp(url: string): Promise<Client> {
  const client = new Client({ name: 'pie-load', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('pie mcp --http under load', () => {
  it('answers 50 concurrent tool calls while pie ingest writes to the same database: no error, no lost write', async () => {
    const server = await startHttpChild([world.db]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const clients = await Promise.all([1, 2, 3, 4, 5].map(() => connectHttp(server.url)));
    // Warm up (the tokenizer loads on first use), so the load below overlaps the writer.
    await clients[0]?.callTool({ name: 'list_periods', arguments: {} });

    const writer = spawnPie(
      ['--db', world.db, ...G, 'ingest', SAMPLE, '--extractor', 'llm', '--llm', `fake:${script}`],
      {},
    );
    const written = finished(writer);
    // Start once the writer is extracting (its batches were planned), polling its database like any reader.
    const probe = await compose({
      config: loadConfig({ flags: { db: world.db, now: NOW, tz: 'UTC' }, env: {} }),
      env: {},
      readonly: true,
    });
    try {
      await withTimeout(
        (async () => {
          while ((await probe.store.episodes.count({ source: 'chatgpt', extraction: 'extracted' })) < 2) {
            await new Promise((r) => setTimeout(r, 100));
          }
        })(),
        60_000,
        'waiting for the writer',
      );
    } finally {
      await probe.close();
    }

    const calls: { name: string; args: Record<string, unknown> }[] = [];
    for (let i = 0; i < 45; i++) {
      const [name, args] = READS[i % READS.length] ?? ['list_periods', {}];
      calls.push({ name, args });
    }
    for (const content of NOTES) calls.push({ name: 'ingest_episode', args: { content } });
    let writerRunning = false;
    const pending = calls.map(
      (c, i) => clients[i % clients.length]?.callTool({ name: c.name, arguments: c.args }) as Promise<CallToolResult>,
    );
    // The reads are answered while the writer extracts; the notes wait for its extraction lease (one extraction
    // at a time per database) and are extracted after it.
    void Promise.all(pending.slice(0, 45)).then(() => {
      writerRunning = writer.exitCode === null;
    });
    const results = await withTimeout(Promise.all(pending), 90_000, '50 concurrent tool calls');

    expect(results).toHaveLength(50);
    results.forEach((r, i) => {
      expect(r.isError, `${calls[i]?.name}: ${textOf(r)}`).toBeFalsy();
      expect(r.structuredContent).toBeDefined();
    });
    expect(textOf(results[0] as CallToolResult)).toContain('Pivoted from surf reports to tide alerts');

    const ingest = await withTimeout(written, 90_000, 'the writer');
    expect(ingest.code, ingest.stderr).toBe(0);
    // The load overlapped the writer (it was still extracting when every read had been answered).
    expect(writerRunning).toBe(true);
    for (const c of clients) await c.close();
    server.child.kill('SIGTERM');
    expect((await server.result).code).toBe(0);

    // No lost write, from either writer.
    const check = await compose({
      config: loadConfig({ flags: { db: world.db, now: NOW, tz: 'UTC' }, env: {} }),
      env: {},
      readonly: true,
    });
    try {
      const { store } = check;
      expect(await store.episodes.count({ source: 'chatgpt' })).toBe(49);
      expect(await store.episodes.count({ source: 'chatgpt', extraction: 'extracted' })).toBe(49);
      const sample = (await store.entities.findByKey('sample project'))[0];
      expect(sample).toBeDefined();
      const mentions = await store.mentions.forEntity(sample?.id ?? '');
      expect(new Set(mentions.filter((m) => m.episodeId.startsWith('chatgpt:')).map((m) => m.episodeId)).size).toBe(49);
      const manual = await store.episodes.list({ source: 'manual' });
      expect(manual).toHaveLength(5);
      for (const e of manual) {
        expect(e.extraction).toBe('extracted');
        expect((await store.mentions.forEpisode(e.id)).length).toBeGreaterThan(0);
      }
      const run = (await store.runs.list(20)).find((r) => r.source.includes('chatgpt-export.json'));
      expect(run?.status).toBe('completed');
      const batches = await store.runs.batches(run?.id ?? '');
      expect(batches.filter((b) => b.status === 'done')).toHaveLength(49);
      // The fixture world is intact.
      expect((await store.entities.findByKey('tidepool'))[0]?.state).toEqual({ stage: 'beta', focus: 'tide alerts' });
    } finally {
      await check.close();
    }
  }, 240_000);
});
