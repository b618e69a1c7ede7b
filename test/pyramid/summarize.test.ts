import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/adapters/llm/fake.js';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { createLlmClient } from '../../src/llm/index.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { getPyramid, observe, renderPyramid, summarize } from '../../src/pyramid/index.js';

const NOW = Date.parse('2024-03-20T12:00:00Z');
const at = (day: string, hour = 10): number => Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);

let store: WorldStore;
let n = 0;
const newId = (): string => `id-${String((n += 1)).padStart(3, '0')}`;

beforeEach(async () => {
  n = 0;
  store = await openSqliteStore({ path: ':memory:', clock: () => NOW });
});
afterEach(async () => store.close());

async function add(text: string, importance: number, time: number): Promise<void> {
  await observe({ store, text, importance, time, now: NOW, newId });
}

async function seed(): Promise<void> {
  await add('User relocated to Austin', 5, at('2024-03-01'));
  await add('User is starting a consulting practice focused on AI', 8, at('2024-03-01', 11));
  await add('User mentioned enjoying coffee in the morning', 3, at('2024-03-01', 12));
  await add('User prefers dark mode in all applications', 7, at('2024-03-02'));
  await add('User signed the first consulting client', 9, at('2024-03-04'));
}

describe('summarize without a model', () => {
  it('assigns models, makes day summaries and compresses windows of 3 days, deterministic and marked so', async () => {
    await seed();
    const report = await summarize({ store, tz: 'UTC', now: NOW, newId });
    expect(report.method).toBe('deterministic');
    expect(report.assigned).toBe(5);
    expect(report.newModels).toEqual([]);
    expect(report.tiers).toEqual([
      { tier: 0, made: 3, unchanged: 0 },
      { tier: 1, made: 1, unchanged: 0 },
      // The 4 March day summary is alone in its tier-1 window, so it is carried up into the 9-day window.
      { tier: 2, made: 1, unchanged: 0 },
    ]);
    const user = await store.pyramid.model('user');
    expect(user).not.toBeNull();
    const tier0 = await store.pyramid.summaries({ modelId: user?.id ?? '', tier: 0 });
    expect(tier0.map((s) => [new Date(s.start).toISOString(), s.method, s.text])).toEqual([
      [
        '2024-03-01T00:00:00.000Z',
        'deterministic',
        '[8] User is starting a consulting practice focused on AI\n[5] User relocated to Austin\n[3] User mentioned enjoying coffee in the morning',
      ],
      ['2024-03-02T00:00:00.000Z', 'deterministic', '[7] User prefers dark mode in all applications'],
      ['2024-03-04T00:00:00.000Z', 'deterministic', '[9] CRITICAL: User signed the first consulting client'],
    ]);
    // Windows are aligned on day numbers: 2024-02-29 is day 19782 = 3 × 6594, so 29 Feb – 2 Mar is one tier-1 window.
    const tier1 = await store.pyramid.summaries({ modelId: user?.id ?? '', tier: 1 });
    expect(
      tier1.map((s) => [new Date(s.start).toISOString(), new Date(s.end).toISOString(), s.sourceIds.length, s.text]),
    ).toEqual([
      [
        '2024-02-29T00:00:00.000Z',
        '2024-03-03T00:00:00.000Z',
        2,
        '[8] User is starting a consulting practice focused on AI\n[7] User prefers dark mode in all applications\n[5] User relocated to Austin\n[3] User mentioned enjoying coffee in the morning',
      ],
    ]);
    // The description is the first line of the latest highest-tier summary, without its emphasis marker.
    expect((await store.pyramid.model('user'))?.description).toBe('User signed the first consulting client');
  });

  it('makes nothing on a second run, and only the touched windows after a new observation', async () => {
    await seed();
    await summarize({ store, tz: 'UTC', now: NOW, newId });
    const again = await summarize({ store, tz: 'UTC', now: NOW, newId });
    expect(again.tiers.map((t) => t.made)).toEqual([0, 0, 0]);
    expect(again.tiers.map((t) => t.unchanged)).toEqual([3, 1, 1]);
    await add('User bought a standing desk', 4, at('2024-03-02', 15));
    const third = await summarize({ store, tz: 'UTC', now: NOW, newId });
    expect(third.tiers).toEqual([
      { tier: 0, made: 1, unchanged: 2 },
      { tier: 1, made: 1, unchanged: 0 },
      { tier: 2, made: 1, unchanged: 0 },
    ]);
  });

  it('returns the pyramid: the last 3 per tier, highest tier first', async () => {
    for (let d = 1; d <= 9; d += 1) await add(`User note of day ${d}`, d, at(`2024-03-0${d}`));
    await summarize({ store, tz: 'UTC', now: NOW, newId });
    const p = await getPyramid({ store, model: 'user' });
    expect(
      p.tiers.map((t) => [t.tier, t.spanDays, t.summaries.map((s) => new Date(s.start).toISOString().slice(0, 10))]),
    ).toEqual([
      [2, 9, ['2024-02-29']],
      // 9 March is alone in its tier-1 window: carried up, not repeated as a tier-1 summary.
      [1, 3, ['2024-02-29', '2024-03-03', '2024-03-06']],
      [0, 1, ['2024-03-07', '2024-03-08', '2024-03-09']],
    ]);
    const text = renderPyramid(p, 'UTC');
    expect(text).toContain(
      '## Tier 2 (9 days each)\n### 2024-02-29 to 2024-03-08 (selected without a model)\n[8] User note of day 8',
    );
    await expect(getPyramid({ store, model: 'nobody' })).rejects.toThrow(
      /There is no mental model "nobody"; known models: self, system, user\./,
    );
  });
});

describe('summarize with a model (scripted fake)', () => {
  it('assigns models by the model (discovering new ones) and writes its telegram-style lines exactly', async () => {
    await add('User relocated to Austin', 5, at('2024-03-01'));
    await add('Maya Chen joined Tidepool as designer', 6, at('2024-03-01', 11));
    await add('User installed Neovim 0.10', 4, at('2024-03-02'));
    const model = createScriptedModel({
      script: {
        'pyramid-assign-models@1': [
          {
            assignments: [
              { observationId: 'id-001', modelName: 'user' },
              { observationId: 'id-002', modelName: 'Maya Chen' },
              { observationId: 'id-003', modelName: 'system' },
            ],
          },
        ],
        'pyramid-summarize-observations@1': [
          'Here you go:\n[6] Maya Chen: designer at Tidepool since 2024-03-01.',
          // Models are summarized in name order: maya-chen, system, user.
          '[4] Neovim 0.10 installed.',
          '[7] IMPORTANT: Relocated to Austin.',
        ],
      },
    });
    const llm = createLlmClient({
      model,
      cache: store.llmCache,
      clock: { now: () => NOW },
      prices: {},
      sleep: async () => undefined,
    });
    const report = await summarize({ store, tz: 'UTC', now: NOW, newId, llm });
    expect(report.newModels).toEqual(['maya-chen']);
    expect(report.method).toBe(llm.label);
    expect(model.calls.map((c) => c.prompt)).toEqual([
      'pyramid-assign-models@1',
      'pyramid-summarize-observations@1',
      'pyramid-summarize-observations@1',
      'pyramid-summarize-observations@1',
    ]);
    const prompt = model.calls[1]?.messages.map((m) => m.content).join('\n') ?? '';
    expect(prompt).toContain('mental model "maya-chen" (2024-03-01)');
    expect(prompt).toContain('[6] Maya Chen joined Tidepool as designer');
    const all = await store.pyramid.summaries();
    const names = new Map((await store.pyramid.models()).map((m) => [m.id, m.name]));
    expect(all.map((s) => [names.get(s.modelId), s.tier, s.method, s.text])).toEqual([
      ['maya-chen', 0, `llm:${llm.label}`, '[6] Maya Chen: designer at Tidepool since 2024-03-01.'],
      ['user', 0, `llm:${llm.label}`, '[7] IMPORTANT: Relocated to Austin.'],
      ['system', 0, `llm:${llm.label}`, '[4] Neovim 0.10 installed.'],
    ]);
    // A second run costs nothing: every window is unchanged.
    const again = await summarize({ store, tz: 'UTC', now: NOW, newId, llm });
    expect(again.tiers).toEqual([{ tier: 0, made: 0, unchanged: 3 }]);
    expect(model.calls).toHaveLength(4);
  });

  it('merges tier-0 summaries into tier 1 with pyramid-summarize-summaries@1, prompt and answer exactly', async () => {
    await add('User relocated to Austin', 5, at('2024-03-01'));
    await add('User prefers dark mode', 6, at('2024-03-02'));
    const model = createScriptedModel({
      script: {
        'pyramid-assign-models@1': [
          {
            assignments: [
              { observationId: 'id-001', modelName: 'user' },
              { observationId: 'id-002', modelName: 'user' },
            ],
          },
        ],
        'pyramid-summarize-observations@1': ['[7] IMPORTANT: Relocated to Austin.', '[6] Dark mode everywhere.'],
        'pyramid-summarize-summaries@1': ['Merged:\n[8] IMPORTANT: Moved to Austin, Mar 2024.\n[6] Dark mode.\nDone.'],
      },
    });
    const llm = createLlmClient({
      model,
      cache: store.llmCache,
      clock: { now: () => NOW },
      prices: {},
      sleep: async () => undefined,
    });
    const report = await summarize({ store, tz: 'UTC', now: NOW, newId, llm });
    expect(report.tiers).toEqual([
      { tier: 0, made: 2, unchanged: 0 },
      { tier: 1, made: 1, unchanged: 0 },
    ]);
    expect(model.calls.map((c) => c.prompt)).toEqual([
      'pyramid-assign-models@1',
      'pyramid-summarize-observations@1',
      'pyramid-summarize-observations@1',
      'pyramid-summarize-summaries@1',
    ]);
    // 1 and 2 March share the tier-1 window 29 Feb – 2 Mar; its sources are the two day summaries, oldest first.
    expect(model.calls[3]?.messages).toEqual([
      {
        role: 'system',
        content:
          'You merge summaries about the mental model "user" into one tier-1 summary covering 2024-02-29 to ' +
          '2024-03-02 (3 days). Keep what stays relevant over time. Write telegram-style lines, one fact per line, ' +
          'each starting with its importance as [N] (1 trivial, 5 normal, 7 notable, 10 critical). Mark the few ' +
          'that matter most with IMPORTANT:, CRITICAL: or ESSENTIAL:. Keep names, dates, numbers and places; drop ' +
          'filler words and repetitions; no other text.',
      },
      {
        role: 'user',
        content: 'Summaries, oldest first:\n[7] IMPORTANT: Relocated to Austin.\n[6] Dark mode everywhere.',
      },
    ]);
    const user = await store.pyramid.model('user');
    const [tier1, ...more] = await store.pyramid.summaries({ modelId: user?.id ?? '', tier: 1 });
    expect(more).toEqual([]);
    // Only the "[N] text" lines of the answer are kept.
    expect([tier1?.text, tier1?.method, tier1?.sourceIds.length]).toEqual([
      '[8] IMPORTANT: Moved to Austin, Mar 2024.\n[6] Dark mode.',
      `llm:${llm.label}`,
      2,
    ]);
    expect(new Date(tier1?.start ?? 0).toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it('keeps the deterministic selection, with a warning, when the model answers without "[N]" lines', async () => {
    await add('User relocated to Austin', 5, at('2024-03-01'));
    const model = createScriptedModel({
      script: {
        'pyramid-assign-models@1': [{ assignments: [{ observationId: 'id-001', modelName: 'user' }] }],
        'pyramid-summarize-observations@1': ['Sorry, I cannot help with that.'],
      },
    });
    const llm = createLlmClient({
      model,
      cache: store.llmCache,
      clock: { now: () => NOW },
      prices: {},
      sleep: async () => undefined,
    });
    const report = await summarize({ store, tz: 'UTC', now: NOW, newId, llm });
    expect(report.warnings).toEqual([
      'The model\'s tier-0 summary of user for 2024-03-01 had no "[N] text" lines; kept the deterministic selection instead.',
    ]);
    const [s] = await store.pyramid.summaries();
    expect([s?.text, s?.method]).toEqual(['[5] User relocated to Austin', 'deterministic']);
  });
});
