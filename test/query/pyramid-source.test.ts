import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import type { MentalModel, Summary } from '../../src/ports/pyramid-store.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import type { Pyramid } from '../../src/pyramid/index.js';
import { buildQueryContext } from '../../src/query/ask.js';
import { fitPyramid, LINES_PER_SUMMARY, MAX_SECTION_CHARS } from '../../src/query/pyramid-source.js';
import { ROOT, pie, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'query', 'world.jsonl');
const NOW = Date.UTC(2025, 10, 1, 12);
const G = ['--tz', 'UTC', '--now', '2025-11-01T12:00:00Z'];

let store: WorldStore;
let db: string;
let dir: string;
let cleanup: () => void;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'pie.db');
  const applied = await pie(['--db', db, ...G, 'apply', FIXTURE]);
  if (applied.code !== 0) throw new Error(applied.stderr);
  store = await openSqliteStore({ path: db });
});
afterAll(async () => {
  await store.close();
  cleanup();
});

const ask = (question: string) => buildQueryContext({ store, question, now: NOW, tz: 'UTC', format: 'hybrid' });

describe('pyramid memory as a retrieval source of pie ask', () => {
  it('adds no section while there are no summaries, then the topic and user pyramids with their sources', async () => {
    const before = await ask('How has Tidepool changed?');
    expect(before.text).not.toContain('Pyramid memory');
    expect(before.pyramid).toEqual([]);

    expect((await pie(['--db', db, ...G, 'summarize', '--no-llm'])).code).toBe(0);
    const after = await ask('How has Tidepool changed?');
    // The world-model context is unchanged; the pyramid comes after it as its own section.
    expect(after.text.startsWith(`${before.text}\n\nPyramid memory (summaries of observations`)).toBe(true);
    const section = after.text.slice(before.text.length);
    const topic = section.indexOf('  Model "tidepool" (a topic):');
    const user = section.indexOf('  Model "user" (the person):');
    expect(topic).toBeGreaterThan(0);
    expect(user).toBeGreaterThan(topic);
    expect(section).toMatch(
      /\n {4}Tier 0 \(1 day\), 2025-07-01 \[P\d+\]:\n {6}\[7\] Tidepool: Pivoted from surf reports/,
    );
    expect(section.length).toBeLessThan(MAX_SECTION_CHARS + 200);

    // Every cited summary is listed once, numbered in order, and is a stored summary of its model.
    expect(after.pyramid.map((s) => s.ref)).toEqual(after.pyramid.map((_, i) => `P${i + 1}`));
    const stored = new Map((await store.pyramid.summaries()).map((s) => [s.id, s]));
    for (const s of after.pyramid) {
      expect(section).toContain(`[${s.ref}]:`);
      expect(section).toContain(`  [${s.ref}] summary ${s.summaryId} of model "${s.model}", tier ${s.tier}: `);
      expect(stored.get(s.summaryId)).toMatchObject({ tier: s.tier, start: s.start, end: s.end });
    }
    expect(new Set(after.pyramid.map((s) => s.model))).toEqual(new Set(['tidepool', 'user']));

    // A question that names no entity gets the user's pyramid only.
    const general = await ask('What have I been up to lately?');
    expect(new Set(general.pyramid.map((s) => s.model))).toEqual(new Set(['user']));
  });

  it('pie ask lists the pyramid summaries the answer cites', async () => {
    const script = join(dir, 'fake.json');
    writeFileSync(
      script,
      JSON.stringify({
        prompts: {
          'classify-query@1': [{ response: { intent: 'temporal_diff', entities: ['Tidepool'], wantsHistory: true } }],
          'answer-question@1': [
            { contains: ['Pyramid memory', '[P1]'], response: 'It pivoted to tide alerts [3][P1].' },
          ],
        },
      }),
    );
    const r = await pie(['--db', db, ...G, 'ask', 'How has Tidepool changed?', '--llm', `fake:${script}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Sources:\n {2}\[3\] “[^\n]+\n {2}\[P1\] pyramid memory, model "tidepool", tier \d+ \(/);
    expect(r.stdout).not.toContain('[P2]');
  });
});

describe('fitPyramid', () => {
  const DAY = 86_400_000;
  const model: MentalModel = { id: 'm', name: 'user', description: '', isBase: true, updatedAt: 0 };
  const summary = (tier: number, k: number, text: string): Summary => ({
    id: `s${tier}-${k}`,
    modelId: 'm',
    tier,
    start: k * 3 ** tier * DAY,
    end: (k + 1) * 3 ** tier * DAY,
    text,
    sourceIds: ['x'],
    createdAt: 0,
    method: 'deterministic',
    sourceHash: '',
  });
  const six = ['[3] a', '[9] CRITICAL: b', '[5] c', '[8] d', '[2] e', '[6] f'].join('\n');
  const pyramid: Pyramid = {
    model,
    tiers: [5, 4, 3, 2, 1, 0].map((tier) => ({
      tier,
      spanDays: 3 ** tier,
      summaries: [0, 1, 2].map((k) => summary(tier, k, six)),
    })),
  };
  const kept = (budget: number) => fitPyramid(pyramid, budget).map((b) => b.summary.id);
  const one = '[9] CRITICAL: b\n[5] c\n[8] d\n[6] f'.length + 200;

  it.each([
    [0, []],
    [one, ['s0-2']],
    [2 * one, ['s5-2', 's0-2']],
    [3 * one, ['s5-2', 's1-2', 's0-2']],
    [7 * one, ['s5-2', 's4-2', 's3-2', 's2-2', 's1-2', 's0-1', 's0-2']],
    [100 * one, pyramid.tiers.flatMap((t) => t.summaries.map((s) => s.id))],
  ])('with %i characters keeps the newest recent and long-term summaries first: %j', (budget, ids) => {
    expect(kept(budget)).toEqual(ids);
  });

  it(`keeps the ${LINES_PER_SUMMARY} most important lines of a summary in their order`, () => {
    expect(fitPyramid(pyramid, one)[0]?.lines).toBe('[9] CRITICAL: b\n[5] c\n[8] d\n[6] f');
  });
});
