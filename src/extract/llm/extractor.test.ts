import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedModel, type ScriptedAnswer } from '../../adapters/llm/fake.js';
import { openSqliteStore } from '../../adapters/store/sqlite/index.js';
import { createTiktokenTokenizer } from '../../adapters/tokenizer/tiktoken.js';
import { isPieError } from '../../domain/errors.js';
import { createLlmClient } from '../../llm/client.js';
import { DEFAULT_PRICES } from '../../llm/prices.js';
import type { WorldStore } from '../../ports/world-store.js';
import { extractionResultSchema } from '../result.js';
import type { ExtractionBatch } from '../types.js';
import { estimateExtractionTokens } from './estimate.js';
import { createLlmExtractor } from './extractor.js';
import { renderExtractionPrompt } from './prompt.js';

const DAY = Date.UTC(2024, 2, 15, 13, 5); // Fri 2024-03-15 14:05 in Berlin
const LONG_REPLY = 'Here is a detailed plan. '.repeat(200);

const batch: ExtractionBatch = {
  id: '2024-03-15',
  date: DAY,
  tz: 'Europe/Berlin',
  episodes: [
    {
      id: 'conv-a',
      title: 'Launch planning',
      createdAt: DAY,
      model: 'gpt-4o',
      turns: [
        { role: 'user', text: 'SRA launches next week, Maya will run mentoring.', time: DAY },
        { role: 'assistant', text: LONG_REPLY, time: DAY + 60_000 },
      ],
    },
    {
      id: 'conv-b',
      title: 'Database choice',
      createdAt: DAY + 3 * 3_600_000,
      model: 'gpt-4o',
      turns: [
        { role: 'user', text: `We go with FalkorDB instead of Neo4j. ${'lorem ipsum '.repeat(300)}`, time: null },
      ],
    },
  ],
  preamble: {
    recentEntities: [{ name: 'Maya Chen', type: 'person', aliases: ['Maya'], state: { role: 'designer' } }],
    recentTransitions: [
      {
        entityName: 'Science Research Academy',
        kind: 'update',
        summary: 'Moved launch to spring',
        eventTime: DAY - 3 * 86_400_000,
      },
    ],
    activeProjects: [
      { name: 'Science Research Academy', type: 'project', aliases: ['SRA'], state: { stage: 'planning' } },
    ],
    mentionedEntities: [{ name: 'Maya Chen', type: 'person', aliases: ['Maya'], state: { role: 'designer' } }],
    currentPeriod: 'UMD freshman year',
  },
};

const answer = {
  entities: [
    {
      name: 'Science Research Academy',
      type: 'Project',
      aliases: ['SRA'],
      state: { stage: 'launching' },
      matchesExisting: 'Science Research Academy',
      episodeId: 'c1',
    },
    { name: 'FalkorDB', type: 'tool', episodeId: 'c2' },
    { name: 'Neo4j', type: 'tool', episodeId: 'c9' },
  ],
  relationships: [
    {
      source: 'Maya Chen',
      target: 'Science Research Academy',
      type: 'works on',
      properties: { role: 'mentoring lead' },
      episodeId: 'c1',
    },
  ],
  stateChanges: [
    {
      entityName: 'Science Research Academy',
      attribute: 'stage',
      oldStateAspect: 'planning',
      newStateAspect: 'launching',
      whatChanged: 'Launch is next week',
      isContradiction: false,
      confidence: 0.9,
      episodeId: 'c1',
    },
  ],
  beliefs: [],
  decisions: [
    {
      summary: 'use FalkorDB',
      reasoning: 'vector search built in',
      alternatives: ['Neo4j'],
      relatedEntities: ['FalkorDB'],
      episodeId: 'conv-b',
    },
  ],
  periodContext: 'UMD freshman year',
  summary: 'Planned the SRA launch and chose a database.',
  significance: 0.7,
  userState: 'decisive',
  episodes: [
    { id: 'c1', summary: 'Launch planning', significance: 0.7 },
    { id: 'c2', summary: 'Chose FalkorDB', significance: 0.5, userState: 'decisive' },
  ],
};

describe('LLM extractor', () => {
  let dir: string;
  let store: WorldStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pie-llm-extract-'));
    store = await openSqliteStore({ path: join(dir, 'pie.db') });
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  function extractorWith(answers: ScriptedAnswer[], clipAssistantChars?: number | null) {
    const model = createScriptedModel({
      script: { 'extract-batch@3': answers },
      ref: { provider: 'openai', model: 'gpt-5-mini' },
    });
    const client = createLlmClient({ model, cache: store.llmCache, clock: { now: () => DAY }, prices: DEFAULT_PRICES });
    const extractor = createLlmExtractor({
      client,
      ...(clipAssistantChars === undefined ? {} : { clipAssistantChars }),
    });
    return { model, extractor };
  }

  it('turns a two-conversation batch into an ExtractionResult with the batch and episode ids filled by code', async () => {
    const { extractor } = extractorWith([answer]);
    expect(extractor).toMatchObject({ kind: 'llm', label: 'openai:gpt-5-mini' });
    const { result, usage } = await extractor.extract({ batch });
    expect(result.batch).toEqual({
      id: '2024-03-15',
      date: '2024-03-15T13:05:00.000Z',
      episodeIds: ['conv-a', 'conv-b'],
    });
    expect(result.entities.map((e) => [e.name, e.type, e.episodeId])).toEqual([
      ['Science Research Academy', 'project', 'conv-a'],
      ['FalkorDB', 'tool', 'conv-b'],
      ['Neo4j', 'tool', undefined], // "c9" names no conversation of the batch
    ]);
    expect(result.relationships[0]).toMatchObject({ type: 'WORKS_ON', episodeId: 'conv-a', ended: false });
    expect(result.stateChanges[0]?.episodeId).toBe('conv-a');
    expect(result.decisions[0]?.episodeId).toBe('conv-b'); // a real id echoed back is kept
    expect(result.episodes.map((e) => [e.id, e.significance])).toEqual([
      ['conv-a', 0.7],
      ['conv-b', 0.5],
    ]);
    expect(extractionResultSchema.safeParse(result).success).toBe(true);
    expect(usage.calls).toBe(1);
    expect(usage.costUsd).toBeGreaterThan(0);
  });

  it('renders the rules, the known world and both conversations', async () => {
    const { model, extractor } = extractorWith([answer]);
    await extractor.extract({ batch });
    const [system, user] = model.calls[0]?.messages ?? [];
    expect(system?.role).toBe('system');
    expect(system?.content).toMatch(/WORKS_ON, COLLABORATES_WITH, USES/);
    expect(system?.content).toMatch(
      /person, project, belief, decision, tool, concept, organization, period, place, event, preference, commitment/,
    );
    expect(system?.content).toMatch(/^observations — a few first-person sentences/m);
    expect(model.calls[0]?.prompt).toBe('extract-batch@3');
    const text = user?.content ?? '';
    expect(text).toContain('Current life period: UMD freshman year');
    expect(text).toContain('- Maya Chen [person] (aka Maya) — role: designer');
    expect(text.match(/Maya Chen \[person\]/g)).toHaveLength(1); // listed once though in two lists
    expect(text).toContain('- Science Research Academy [project] (aka SRA) — stage: planning');
    expect(text).toContain('- 3 days before: Science Research Academy (update) — Moved launch to spring');
    expect(text).toContain('## c1: "Launch planning"\nDate: Fri 2024-03-15 14:05');
    expect(text).toContain('## c2: "Database choice"\nDate: Fri 2024-03-15 17:05');
    expect(text).toContain('User: SRA launches next week, Maya will run mentoring.');
    expect(text).toContain(`User: We go with FalkorDB instead of Neo4j. ${'lorem ipsum '.repeat(300).trimEnd()}`); // user turns are never clipped
    expect(text).toMatch(/Assistant: Here is a detailed plan\.[^\n]*\[…\d+ more characters of this reply omitted\]/);
    expect(text).not.toContain(LONG_REPLY.trim());
    expect(model.calls[0]?.jsonSchema).toMatchObject({ type: 'object' });
    expect(JSON.stringify(model.calls[0]?.jsonSchema)).not.toContain('"batch"');
  });

  it('clips assistant turns to the configured length, or not at all', () => {
    const clipped = renderExtractionPrompt(batch, { clipAssistantChars: 100 })[1]?.content ?? '';
    expect(clipped).toMatch(/\[…4900 more characters of this reply omitted\]/);
    const full = renderExtractionPrompt(batch, { clipAssistantChars: null })[1]?.content ?? '';
    expect(full).toContain(LONG_REPLY.trim());
    expect(() => renderExtractionPrompt(batch, { clipAssistantChars: -1 })).toThrow(/whole number of characters/);
  });

  it('says so when the world is empty', () => {
    const empty: ExtractionBatch = {
      ...batch,
      preamble: {
        recentEntities: [],
        recentTransitions: [],
        activeProjects: [],
        mentionedEntities: [],
        currentPeriod: null,
      },
    };
    expect(renderExtractionPrompt(empty)[1]?.content).toMatch(/^# Known world\nNothing yet: every entity is new\./);
  });

  it('retries a malformed answer once, then succeeds', async () => {
    const { model, extractor } = extractorWith(['{"entities": [{"type": "tool"}]}', answer]);
    const { result, usage } = await extractor.extract({ batch });
    expect(result.entities).toHaveLength(3);
    expect(usage.calls).toBe(2);
    expect(model.calls[1]?.messages.at(-1)?.content).toMatch(/entities\.0\.name/);
  });

  it('fails the batch with LLM_INVALID_OUTPUT after two malformed answers, caching nothing', async () => {
    const { model, extractor } = extractorWith(['Sorry, I cannot help.', '{"significance": 7}', answer]);
    const error = await extractor.extract({ batch }).catch((e: unknown) => e);
    expect(isPieError(error, 'LLM_INVALID_OUTPUT')).toBe(true);
    expect((error as Error).message).toMatch(
      /gave an unusable answer to extract-batch@3 twice \(the JSON does not match the schema: significance: /,
    );
    // The next attempt asks the model again (nothing invalid was cached).
    const { result } = await extractor.extract({ batch });
    expect(result.batch.id).toBe('2024-03-15');
    expect(model.calls).toHaveLength(3);
  });

  it('answers a re-run from the cache at no cost', async () => {
    const { model, extractor } = extractorWith([answer]);
    await extractor.extract({ batch });
    const again = await extractor.extract({ batch });
    expect(again.usage).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0, cachedCalls: 1, calls: 0 });
    expect(again.result.entities[0]?.episodeId).toBe('conv-a');
    expect(model.calls).toHaveLength(1);
  });

  it('assigns every item to the only conversation of a one-conversation batch', async () => {
    const single: ExtractionBatch = { ...batch, episodes: batch.episodes.slice(0, 1) };
    const { extractor } = extractorWith([
      { entities: [{ name: 'SRA', type: 'project' }], episodes: [{ id: 'c1', summary: 's' }] },
    ]);
    const { result } = await extractor.extract({ batch: single });
    expect(result.entities[0]?.episodeId).toBe('conv-a');
    expect(result.batch.episodeIds).toEqual(['conv-a']);
  });

  it('counts the prompt tokens without calling a model', () => {
    const tokenizer = createTiktokenTokenizer();
    const estimate = estimateExtractionTokens({ batch, tokenizer });
    const messages = renderExtractionPrompt(batch);
    const exact = messages.reduce((sum, m) => sum + tokenizer.count(m.content) + 4, 0);
    expect(estimate.promptTokens).toBe(exact);
    expect(estimate.schemaTokens).toBeGreaterThan(200);
    expect(estimate.inputTokens).toBe(estimate.promptTokens + estimate.schemaTokens);
    const unclipped = estimateExtractionTokens({ batch, tokenizer, options: { clipAssistantChars: null } });
    expect(unclipped.promptTokens).toBeGreaterThan(estimate.promptTokens + 500);
  });
});
