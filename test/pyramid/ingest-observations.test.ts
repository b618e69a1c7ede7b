import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/adapters/llm/fake.js';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { createLlmExtractor } from '../../src/extract/llm/index.js';
import { importConversations } from '../../src/import/index.js';
import { runImportStage } from '../../src/ingest/import-stage.js';
import { runIngest } from '../../src/ingest/pipeline.js';
import { createLlmClient } from '../../src/llm/index.js';
import type { LanguageModel } from '../../src/ports/llm.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { observeWorld } from '../../src/pyramid/index.js';
import { findEntity } from '../../src/world/lookup.js';
import { ROOT, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'ingest', 'three-days.jsonl');
const NOW = Date.UTC(2025, 5, 1);
const clock = { now: () => NOW };

/** The scripted model's answers, one per daily batch; day 1 also carries observations (an optional field). */
const DAY1 = {
  entities: [{ name: 'Tidepool', type: 'project', state: { stage: 'idea', focus: 'study groups' }, episodeId: 'c1' }],
  observations: [
    { text: 'User  prefers building  things alone at first', importance: 6, episodeId: 'c1' },
    { text: 'Tidepool is the project the user cares most about', importance: 12, about: 'Tidepool' },
  ],
  summary: 'Started Tidepool.',
};
const DAY2 = {
  entities: [{ name: 'Maya Chen', type: 'person', state: { role: 'co-founder' }, episodeId: 'c1' }],
  observations: null,
  summary: 'Maya joined.',
};
const DAY3 = {
  stateChanges: [
    {
      entityName: 'Tidepool',
      whatChanged: 'Pivoted from study groups to research notes for labs',
      oldStateAspect: 'study groups',
      newStateAspect: 'research notes for labs',
      isContradiction: true,
      confidence: 0.9,
    },
  ],
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

function ingestWith(model: LanguageModel) {
  const client = createLlmClient({ model, cache: store.llmCache, clock, prices: {}, sleep: async () => undefined });
  return runIngest({
    store,
    extractor: createLlmExtractor({ client }),
    clock,
    newId: () => `id-${++n}`,
    source: 'test',
    tz: 'UTC',
    maxBatchTokens: 12_000,
    concurrency: 1,
  });
}

describe('observations from ingestion', () => {
  it('records one per transition (as --from-world would) and the extraction’s own, once', async () => {
    const summary = await ingestWith(createScriptedModel({ script: { 'extract-batch@3': [DAY1, DAY2, DAY3] } }));
    expect(summary.batches.done).toBe(3);
    const observations = await store.pyramid.observations({ order: 'asc' });
    const tidepool = await findEntity({ store, name: 'Tidepool' });
    const transitions = await store.transitions.list();

    // Every transition the batches recorded has its observation, with the id --from-world would give it.
    const fromWorld = observations.filter((o) => o.source === 'world');
    expect(fromWorld.map((o) => o.id).sort()).toEqual(transitions.map((t) => `obs-transition-${t.id}`).sort());
    const pivot = transitions.find((t) => t.kind === 'contradiction');
    expect(observations.find((o) => o.id === `obs-transition-${pivot?.id ?? ''}`)).toMatchObject({
      text: 'Tidepool: Pivoted from study groups to research notes for labs',
      importance: 8,
      entityId: tidepool.id,
      eventTime: Date.parse('2025-03-04T16:00:00Z'),
      recordedAt: NOW,
      modelId: null,
    });

    // The extraction's observations: whitespace normalized, importance rounded, importance clamped to 1–10, the episode resolved from "c1",
    // the time of that episode, the entity named by `about`.
    const extracted = observations.filter((o) => o.source === 'extraction');
    const episode = (await store.episodes.list({})).find((e) => e.title === 'Starting Tidepool');
    expect(extracted.map(({ id: _id, ...o }) => o)).toEqual([
      {
        text: 'User prefers building things alone at first',
        importance: 6,
        modelId: null,
        entityId: null,
        episodeId: episode?.id,
        eventTime: Date.parse('2024-09-10T15:00:00Z'),
        recordedAt: NOW,
        source: 'extraction',
      },
      {
        text: 'Tidepool is the project the user cares most about',
        importance: 10,
        modelId: null,
        entityId: tidepool.id,
        episodeId: episode?.id,
        eventTime: Date.parse('2024-09-10T15:00:00Z'),
        recordedAt: NOW,
        source: 'extraction',
      },
    ]);
    expect(extracted.every((o) => /^obs-extract-[0-9a-f]{24}$/.test(o.id))).toBe(true);
    expect(summary.mutations['observation.add']).toBe(observations.length);
    expect(summary.mutations['observation.add']).toBe(transitions.length + 2);

    // Idempotent: --from-world / pie summarize find nothing new, and a second ingest has nothing to do.
    expect(await observeWorld({ store, now: NOW })).toBe(0);
    const again = await ingestWith(createScriptedModel({ script: {} }));
    expect(again.batches.planned).toBe(0);
    expect(await store.pyramid.countObservations()).toBe(observations.length);
  });
});
