import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLanguageModel } from '../../src/adapters/llm/ai-sdk.js';
import { createScriptedModel } from '../../src/adapters/llm/fake.js';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { createLlmExtractor } from '../../src/extract/llm/index.js';
import { importConversations } from '../../src/import/index.js';
import { runImportStage } from '../../src/ingest/import-stage.js';
import { runIngest } from '../../src/ingest/pipeline.js';
import { createLlmClient } from '../../src/llm/index.js';
import type { LanguageModel } from '../../src/ports/llm.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { findEntity } from '../../src/world/lookup.js';
import { ROOT, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'ingest', 'three-days.jsonl');
const NOW = Date.UTC(2025, 5, 1);
const clock = { now: () => NOW };

/** What the (scripted) model answers for each daily batch, in chronological order. */
const DAY1 = {
  entities: [{ name: 'Tidepool', type: 'project', state: { stage: 'idea', focus: 'study groups' }, episodeId: 'c1' }],
  relationships: [{ source: 'I', target: 'Tidepool', type: 'WORKS_ON', properties: { role: 'founder' } }],
  beliefs: [{ statement: 'vector search is enough for memory', domain: 'AI memory', confidence: 0.7 }],
  periodContext: 'junior year at UMD',
  summary: 'Started Tidepool.',
  significance: 0.6,
  userState: 'exploratory',
};
const DAY2 = {
  entities: [
    { name: 'Tidepool', type: 'project', aliases: ['TP'], state: { stage: 'launched' }, episodeId: 'c1' },
    { name: 'Maya Chen', type: 'person', state: { role: 'co-founder' }, episodeId: 'c1' },
  ],
  relationships: [
    { source: 'Maya Chen', target: 'TP', type: 'WORKS_ON', properties: { role: 'co-founder' }, episodeId: 'c1' },
  ],
  decisions: [
    {
      summary: 'use Supabase instead of Firebase',
      reasoning: 'our data is relational',
      alternatives: ['Firebase'],
      relatedEntities: ['Tidepool', 'Supabase'],
      episodeId: 'c2',
    },
  ],
  periodContext: 'junior year at UMD',
  episodes: [
    { id: 'c1', summary: 'Maya joined; Tidepool launched.', significance: 0.8 },
    { id: 'c2', summary: 'Chose Supabase.', significance: 0.6 },
  ],
};
const DAY3 = {
  entities: [{ name: 'Maya', type: 'person', state: { role: 'CEO' } }],
  stateChanges: [
    {
      entityName: 'TP',
      whatChanged: 'Pivoted from study groups to research notes for labs',
      oldStateAspect: 'study groups',
      newStateAspect: 'research notes for labs',
      isContradiction: true,
      confidence: 0.9,
    },
  ],
  beliefs: [
    {
      statement: 'knowledge graphs beat vector search for memory',
      domain: 'AI memory',
      confidence: 0.8,
      replaces: 'Vector search is enough for memory',
    },
  ],
  periodContext: 'junior year at UMD',
  summary: 'The pivot.',
};

let n = 0;
let dir: string;
let cleanup: () => void;
let store: WorldStore;

beforeEach(async () => {
  ({ dir, cleanup } = tempDir());
  store = await openSqliteStore({ path: join(dir, 'pie.db') });
  await runImportStage({
    store,
    events: importConversations({ path: FIXTURE, format: 'auto', tz: 'UTC' }),
    clock,
    tz: 'UTC',
    dryRun: false,
  });
});
afterEach(async () => {
  await store.close();
  cleanup();
});

function ingestWith(model: LanguageModel, concurrency = 1) {
  const client = createLlmClient({ model, cache: store.llmCache, clock, prices: {}, sleep: async () => undefined });
  return runIngest({
    store,
    extractor: createLlmExtractor({ client }),
    clock,
    newId: () => `id-${++n}`,
    source: 'test',
    tz: 'UTC',
    maxBatchTokens: 12_000,
    concurrency,
  });
}

describe('multi-day ingestion with a scripted model', () => {
  it('builds exact timelines, facts, contradictions, aliases and periods; the preamble carries earlier days', async () => {
    const model = createScriptedModel({ script: { 'extract-batch@3': [DAY1, DAY2, DAY3] } });
    const summary = await ingestWith(model);
    expect(summary.status).toBe('completed');
    expect(summary.batches).toEqual({ planned: 3, done: 3, failed: 0, notStarted: 0 });

    // Rolling context: day 2's prompt knows Tidepool from day 1; day 3's prompt knows the alias TP and Maya.
    const prompts = model.calls.map((c) => c.messages.map((m) => m.content).join('\n'));
    expect(prompts[0]).not.toContain('stage: idea');
    expect(prompts[1]).toContain('Tidepool');
    expect(prompts[1]).toContain('idea');
    expect(prompts[2]).toContain('Maya Chen');

    const tidepool = await findEntity({ store, name: 'tp' });
    expect([tidepool.name, tidepool.type, tidepool.aliases]).toEqual(['Tidepool', 'project', ['TP']]);
    expect(tidepool.state).toEqual({ stage: 'launched', focus: 'research notes for labs' });
    const transitions = await store.transitions.forEntity(tidepool.id);
    expect(
      transitions.map((t) => [new Date(t.eventTime).toISOString().slice(0, 10), t.kind, t.fromState, t.toState]),
    ).toEqual([
      ['2024-09-10', 'creation', null, { stage: 'idea', focus: 'study groups' }],
      ['2024-11-06', 'update', { stage: 'idea' }, { stage: 'launched' }],
      ['2025-03-04', 'contradiction', { focus: 'study groups' }, { focus: 'research notes for labs' }],
    ]);
    expect(transitions.every((t) => t.episodeId !== null)).toBe(true);
    expect(transitions[2]?.resolvedBy).toBeNull();

    const focus = await store.facts.history(tidepool.id, 'focus');
    expect(
      focus.map((f) => [f.value, f.validTo === null ? 'current' : new Date(f.validTo).toISOString().slice(0, 10)]),
    ).toEqual([
      ['study groups', '2025-03-04'],
      ['research notes for labs', 'current'],
    ]);
    expect(focus[0]?.supersededBy).toBe(focus[1]?.id);

    // "Maya" on day 3 resolves to Maya Chen; her role changed; the WORKS_ON edge to "TP" landed on Tidepool.
    const maya = await findEntity({ store, name: 'Maya' });
    expect([maya.name, maya.state, maya.aliases]).toEqual(['Maya Chen', { role: 'CEO' }, ['Maya']]);
    const mayaEdges = await store.relationships.forEntity(maya.id, { includeEnded: true });
    expect(mayaEdges.filter((r) => r.type === 'WORKS_ON').map((r) => [r.targetId, r.properties])).toEqual([
      [tidepool.id, { role: 'co-founder' }],
    ]);

    // The belief reversal.
    const old = await findEntity({ store, name: 'vector search is enough for memory' });
    expect(old.state.stance).toBe('abandoned');
    const oldT = await store.transitions.forEntity(old.id);
    expect(oldT.map((t) => t.kind)).toEqual(['creation', 'contradiction']);
    const contradictions = await store.transitions.list({ kind: 'contradiction' });
    expect(contradictions).toHaveLength(2);

    // The decision is ABOUT Tidepool and Supabase.
    const decision = await findEntity({ store, name: 'use Supabase instead of Firebase' });
    const about = (await store.relationships.forEntity(decision.id)).filter((r) => r.type === 'ABOUT');
    const targets = await Promise.all(about.map(async (r) => (await store.entities.get(r.targetId))?.name));
    expect(targets.sort()).toEqual(['Supabase', 'Tidepool']);

    // The period spans the observed dates; episodes are annotated and marked extracted.
    const periods = await store.periods.list();
    expect(periods.map((p) => [p.name, new Date(p.start).toISOString(), new Date(p.end ?? 0).toISOString()])).toEqual([
      ['junior year at UMD', '2024-09-10T15:00:00.000Z', '2025-03-04T16:00:00.000Z'],
    ]);
    const d2b = (await store.episodes.list()).find((e) => e.title === 'Database choice');
    expect([d2b?.summary, d2b?.significance, d2b?.extraction]).toEqual(['Chose Supabase.', 0.6, 'extracted']);
    expect(await store.episodes.count({ extraction: 'pending' })).toBe(0);
  });

  it('a malformed answer fails its batch with the reason, keeps everything else, and a re-run finishes it', async () => {
    const bad = '{"entities": [{"name": 42}]}';
    const model = createScriptedModel({ script: { 'extract-batch@3': [DAY1, bad, bad, DAY3] } });
    const summary = await ingestWith(model);
    expect(summary.batches).toEqual({ planned: 3, done: 2, failed: 1, notStarted: 0 });
    expect(summary.failures[0]?.batchId).toBe('2024-11-06');
    expect(summary.failures[0]?.reason).toMatch(/invalid|could not be used|entities/i);
    const runs = await store.runs.list(1);
    const batches = await store.runs.batches(runs[0]!.id);
    expect(batches.find((b) => b.key === '2024-11-06')?.status).toBe('failed');
    expect(await store.episodes.count({ extraction: 'failed' })).toBe(2);
    // Day 3 spoke of "TP", an alias only day 2 would have taught: without it, TP stays a separate entity (the
    // sleep cycle's merge candidates) and Tidepool itself is untouched.
    const tidepool = await findEntity({ store, name: 'Tidepool' });
    expect((await store.transitions.forEntity(tidepool.id)).map((t) => t.kind)).toEqual(['creation']);

    // Re-run: only the failed day is extracted; days 1 and 3 come neither from the model nor twice.
    const retry = createScriptedModel({ script: { 'extract-batch@3': [DAY2] } });
    const again = await ingestWith(retry);
    expect(again.batches).toEqual({ planned: 1, done: 1, failed: 0, notStarted: 0 });
    expect(retry.calls).toHaveLength(1);
    expect(await store.episodes.count({ extraction: 'failed' })).toBe(0);
    expect((await findEntity({ store, name: 'Maya Chen' })).name).toBe('Maya Chen');
    expect((await store.transitions.forEntity(tidepool.id)).map((t) => t.kind)).toEqual(['creation', 'update']);
  });

  it('an unreachable provider fails the batches with a clear reason and loses nothing', async () => {
    const model = createLanguageModel({
      ref: { provider: 'openai-compatible', model: 'local', baseUrl: 'http://127.0.0.1:9/v1' },
      env: {},
    });
    const before = await store.stats();
    const summary = await ingestWith(model);
    expect(summary.batches.failed).toBe(3);
    expect(summary.failures[0]?.reason).toMatch(/Could not reach/);
    const after = await store.stats();
    expect({ ...after, episodesPendingExtraction: 0 }).toEqual({ ...before, episodesPendingExtraction: 0 });
    expect(after.episodes).toBe(4);
  });

  it('with concurrency, results are still applied in chronological order', async () => {
    // Answers by content: with several calls in flight, the order in which they reach the model is not fixed.
    const byTitle: [string, object][] = [
      ['Starting Tidepool', DAY1],
      ['Maya joins', DAY2],
      ['The pivot', DAY3],
    ];
    const model = createScriptedModel({
      delayMs: 20,
      respond: (request) => {
        const text = request.messages.map((m) => m.content).join('\n');
        const hit = byTitle.find(([title]) => text.includes(title));
        if (!hit) throw new Error('unexpected batch');
        return hit[1];
      },
    });
    const summary = await ingestWith(model, 3);
    expect(summary.batches.done).toBe(3);
    const tidepool = await findEntity({ store, name: 'Tidepool' });
    expect((await store.transitions.forEntity(tidepool.id)).map((t) => t.kind)).toEqual([
      'creation',
      'update',
      'contradiction',
    ]);
  });
});
