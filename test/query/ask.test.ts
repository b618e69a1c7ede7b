import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { PieError } from '../../src/domain/errors.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { buildQueryContext } from '../../src/query/ask.js';
import type { Intent } from '../../src/query/types.js';
import { ROOT, pie, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'query', 'world.jsonl');
const NOW = Date.UTC(2025, 10, 1, 12);

let store: WorldStore;
let cleanup: () => void;

beforeAll(async () => {
  const tmp = tempDir();
  cleanup = tmp.cleanup;
  const db = join(tmp.dir, 'pie.db');
  const applied = await pie(['--db', db, '--tz', 'UTC', 'apply', FIXTURE]);
  if (applied.code !== 0) throw new Error(applied.stderr);
  store = await openSqliteStore({ path: db });
});
afterAll(async () => {
  await store.close();
  cleanup();
});

async function context(question: string, format: 'auto' | 'semantic' | 'absolute' | 'hybrid' = 'hybrid') {
  return buildQueryContext({ store, question, now: NOW, tz: 'UTC', format });
}

async function idOf(name: string): Promise<string> {
  const [e] = await store.entities.findByKey(name.toLowerCase());
  if (!e) throw new Error(`no ${name}`);
  return e.id;
}

describe('each intent retrieves its own subgraph (world built with pie apply)', () => {
  const intents: [string, Intent][] = [
    ['How has Tidepool changed?', 'temporal_diff'],
    ['What is the current state of Tidepool?', 'current_state'],
    ['Who is Maya?', 'entity_lookup'],
    ['How is Maya connected to FalkorDB?', 'relationship'],
    ['What contradictions are there in my beliefs?', 'contradiction'],
    ['How do I usually approach a new project?', 'procedural'],
    ['kayakers', 'general'],
  ];
  it.each(intents)('%s → %s', async (question, intent) => {
    expect((await context(question)).plan.intent).toBe(intent);
  });

  it('temporal_diff: the whole history of the named entity, the pivot flagged', async () => {
    const c = await context('How has Tidepool changed?');
    const block = c.subgraph.entities[0];
    expect(block?.entity.name).toBe('Tidepool');
    expect(block?.transitions.map((t) => t.kind)).toEqual(['creation', 'update', 'contradiction']);
    expect(c.text).toContain(
      'Pivoted from surf reports to tide alerts for kayakers [focus: surf reports → tide alerts]',
    );
    expect(c.text).toContain('⚠ Contradicted the previous state (unresolved).');
  });

  it('current_state: current facts and open relationships, no superseded history', async () => {
    const c = await context('What is the current state of Tidepool?');
    expect(c.plan.wantsHistory).toBe(false);
    const block = c.subgraph.entities.find((b) => b.entity.name === 'Tidepool');
    expect(block?.entity.state).toMatchObject({ stage: 'beta', focus: 'tide alerts' });
    expect(c.text).toContain('Current state: stage: beta; focus: tide alerts.');
    expect(c.text).toContain('Latest changes');
    // Neo4j was dropped; its USES edge is still open, but Maya's role is current, not the old one.
    const maya = c.subgraph.entities.find((b) => b.entity.name === 'Maya Chen');
    if (maya) expect(maya.entity.state.role).toBe('advisor');
  });

  it('history on request: a question about the past includes superseded states', async () => {
    const current = await context('What role does Maya have?');
    const past = await context('What role did Maya have before?');
    expect(current.plan.wantsHistory).toBe(false);
    expect(past.plan.wantsHistory).toBe(true);
    const pastBlock = past.subgraph.entities.find((b) => b.entity.name === 'Maya Chen');
    expect(pastBlock?.transitions.some((t) => t.fromState?.role === 'classmate')).toBe(true);
  });

  it('relationship: finds the path Maya → Tidepool ← PIE → FalkorDB', async () => {
    const c = await context('How is Maya connected to FalkorDB?');
    expect(c.subgraph.paths.length).toBeGreaterThan(0);
    const names = c.subgraph.paths[0]?.map((h) => h.to.name);
    expect(names).toEqual(['Tidepool', 'PIE', 'FalkorDB']);
    expect(c.text).toContain('Maya Chen —WORKS_ON→ Tidepool ←INSPIRED_BY— PIE —USES→ FalkorDB');
  });

  it('contradiction: lists unresolved contradictions, the reversed belief among them', async () => {
    const c = await context('What contradictions are there in my beliefs?');
    const summaries = c.subgraph.contradictions.map((t) => t.summary);
    expect(summaries).toContain('No longer believed; replaced by: knowledge graphs beat pure vector search for memory');
    expect(summaries).toContain('Pivoted from surf reports to tide alerts for kayakers');
    expect(c.text).toContain('Unresolved contradictions:');
  });

  it('entity_lookup: the named entity first, with its relationships', async () => {
    const c = await context('Who is Maya?');
    expect(c.subgraph.entities[0]?.entity.id).toBe(await idOf('Maya Chen'));
    expect(c.text).toContain('Maya Chen WORKS_ON Tidepool (role: co-founder)');
  });

  it('temporal lane: a period name narrows history to its range', async () => {
    const c = await context('What happened to Tidepool during the gap semester in San Francisco?');
    expect(c.plan.timeRanges[0]?.kind).toBe('period');
    const block = c.subgraph.entities.find((b) => b.entity.name === 'Tidepool');
    expect(block?.transitions.map((t) => t.summary)).toEqual(['Pivoted from surf reports to tide alerts for kayakers']);
  });

  it('general: lexical retrieval finds a word that only occurs in a transition summary', async () => {
    const c = await context('kayakers');
    expect(c.items.some((i) => i.ref.kind === 'transition' && i.lanes.includes('lexical'))).toBe(true);
    expect(c.text).toContain('kayakers');
  });

  it('records access counts for the entities in the context', async () => {
    const id = await idOf('FalkorDB');
    const before = (await store.entities.get(id))?.accessCount ?? 0;
    await buildQueryContext({
      store,
      question: 'What is FalkorDB?',
      now: NOW,
      tz: 'UTC',
      format: 'auto',
      recordAccess: true,
    });
    expect((await store.entities.get(id))?.accessCount).toBe(before + 1);
  });

  it('still answers when the access counts cannot be written (another process holds the database), and says so', async () => {
    // What `pie serve` met beside a sleep on PostgreSQL (issue 18): the bookkeeping failed, and with it the answer.
    const busy: WorldStore = {
      ...store,
      entities: {
        ...store.entities,
        incrementAccess: () => Promise.reject(new PieError('DB_LOCKED', 'The database is busy with another process.')),
      },
    };
    const warnings: string[] = [];
    const c = await buildQueryContext({
      store: busy,
      question: 'What is FalkorDB?',
      now: NOW,
      tz: 'UTC',
      format: 'auto',
      recordAccess: true,
      onWarning: (m) => warnings.push(m),
    });
    expect(c.text).toContain('FalkorDB');
    expect(warnings).toEqual(['access counts not recorded: The database is busy with another process.']);
  });

  it('rejects an empty or oversized question', async () => {
    await expect(context('   ')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(context('x'.repeat(3000))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('is deterministic for a fixed now', async () => {
    const a = await context('How has my thinking about knowledge graphs evolved?', 'semantic');
    const b = await context('How has my thinking about knowledge graphs evolved?', 'semantic');
    expect(a.text).toBe(b.text);
    expect(a.text).toContain('knowledge graphs beat pure vector search for memory');
  });
});

describe('named entities', () => {
  it('a one-word name is found even when another entity shares two words with the question', async () => {
    // "Maya Chen" shares nothing; "knowledge graphs beat pure vector search for memory" shares two words.
    const c = await context('How is FalkorDB related to knowledge graphs and vector search?');
    expect(c.plan.entityIds).toContain(await idOf('FalkorDB'));
  });
});
