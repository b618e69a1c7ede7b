import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/adapters/llm/fake.js';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { ABLATION_CONDITIONS } from '../../src/bench/ablation-conditions.js';
import { ablationSection } from '../../src/bench/ablation-report.js';
import { locomoAblationUnits, longmemevalAblationUnits, totAblationUnits } from '../../src/bench/ablation-units.js';
import { runTemporalAblation } from '../../src/bench/ablation.js';
import { ResultsFile } from '../../src/bench/qa/results-file.js';
import { readTotItems } from '../../src/bench/tot/items.js';
import { renderDerived } from '../../src/bench/time-renderings.js';
import { createOfflineExtractor } from '../../src/extract/offline/index.js';
import { createLlmClient } from '../../src/llm/index.js';
import type { ModelRequest } from '../../src/ports/llm.js';

const fixture = (name: string): unknown[] =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as unknown[];
const base = {
  conditions: ABLATION_CONDITIONS,
  extraction: { extractor: createOfflineExtractor() },
  openStore: () => openSqliteStore({ path: ':memory:' }),
};
const NOW = Date.UTC(2024, 3, 6, 12);

describe('ablation-only renderings A (raw) and C (relative)', () => {
  const hybrid = [
    'Question: What did I do on 1 April 2024?',
    'Now: 6 April 2024. Intent: general; current state (superseded history left out).',
    '',
    'What the world model knows:',
    '• Pottery (concept): came up 1 April 2024 (5 days ago, during spring).',
    '  ↔ Ben USES Pottery, since 30 March 2024 [1]',
    '',
    'From the conversations:',
    '  • “Session 3”, 1 April 2024 (5 days ago) [1]',
    '    Ben (2 April 2024 (4 days ago)): I sold a bowl on 1 April 2024.',
    '',
    'Sources:',
    '  [1] “Session 3”, 1 April 2024 (5 days ago)',
  ].join('\n');

  it('A writes every time PIE attaches as Unix seconds, leaving the header and quoted words alone', () => {
    const raw = renderDerived(hybrid, { to: 'raw', now: NOW, tz: 'UTC' });
    const day = String(Date.UTC(2024, 3, 1) / 1000);
    expect(raw).toContain(`came up ${day}.`);
    expect(raw).toContain(`since ${Date.UTC(2024, 2, 30) / 1000} [1]`);
    expect(raw).toContain(`Ben (${Date.UTC(2024, 3, 2) / 1000}): I sold a bowl on 1 April 2024.`);
    expect(raw).toContain(`[1] “Session 3”, ${day}`);
    expect(raw.split('\n').slice(0, 2).join('\n')).toBe(hybrid.split('\n').slice(0, 2).join('\n'));
    expect(raw).not.toMatch(/days ago|during spring/);
  });

  it('C keeps only the relative phrase (computed for bare dates), no dates and no periods', () => {
    const rel = renderDerived(hybrid, { to: 'relative', now: NOW, tz: 'UTC' });
    expect(rel).toContain('came up 5 days ago.');
    // 30 March to 6 April: 7 calendar days (at noon, 7.5 days of clock time).
    expect(rel).toContain('since 7 days ago [1]');
    expect(rel).toContain('Ben (4 days ago): I sold a bowl on 1 April 2024.');
    expect(rel).not.toMatch(/during spring|1 April 2024 \(/);
  });
});

describe('temporal format ablation', () => {
  it('compiles every question of the three sets in each condition and measures the contexts', async () => {
    const totItems = readTotItems(fixture('tot-mini.json')).items;
    const units = [
      ...locomoAblationUnits(fixture('locomo-mini.json'), undefined),
      ...longmemevalAblationUnits(fixture('longmemeval-mini.json'), undefined),
      ...totAblationUnits(totItems, 1),
    ];
    const r = await runTemporalAblation({ ...base, units });
    expect(r.table.count('locomo', 'raw')).toBe(1);
    expect(r.table.count('tot', 'semantic')).toBe(7);
    for (const c of ABLATION_CONDITIONS) expect(r.table.mean('locomo', c, 'context_chars') ?? 0).toBeGreaterThan(0);
    // The fixture's temporal gold answer names 2023: formatted dates carry the year, raw timestamps and relative
    // phrases do not.
    expect(r.table.mean('locomo', 'absolute', 'year_in_context')).toBe(1);
    expect(r.table.mean('locomo', 'raw', 'year_in_context')).toBe(0);
    expect(r.table.mean('locomo', 'relative', 'year_in_context')).toBe(0);
    expect(r.table.mean('tot', 'raw', 'facts_in_context')).toBe(1);
    expect(Object.values(r.autoChose.tot ?? {}).reduce((a, b) => a + b, 0)).toBe(7);
    expect(r.accuracy).toBeNull();
    const md = ablationSection({
      set: 'locomo',
      result: r,
      conditions: ABLATION_CONDITIONS,
      meta: {
        command: 'pie bench ablation',
        revision: 'abc',
        data: 'x.json',
        extractor: 'offline rules',
        date: '2026-01-01',
        seconds: 1,
      },
    });
    expect(md).toMatch(/\| A raw timestamps \| \d+\.\d \| 0\.0 \| \d+ \|/);
    expect(md).toMatch(/\| B formatted dates \(`absolute`\) \| \d+\.\d \| 100\.0 \| \d+ \|/);
  });

  it('with a model: answers from each condition, grades by the set rule, resumes, and respects --budget-tokens', async () => {
    const model = createScriptedModel({
      respond: (request: ModelRequest) => {
        const text = request.messages.map((m) => m.content).join('\n');
        if (request.prompt === 'judge-answer@1') return /Generated answer: .*2023/.test(text) ? 'Yes.' : 'No.';
        if (/What year did the war end in\?/.test(text)) return '{"answer": "352 BC"}';
        // The "model" names the year only when the context's body writes a date (not the "Now:" header).
        const body = (/Context:\n([\s\S]*)\n\nQuestion:/.exec(text)?.[1] ?? '')
          .split('\n')
          .filter((l) => !/^(Question|Now): /.test(l))
          .join('\n');
        return /\d{1,2} \w+ 2023/.test(body) ? 'In 2023.' : 'I do not know.';
      },
    });
    const cache = await openSqliteStore({ path: ':memory:' });
    const client = createLlmClient({ model, cache: cache.llmCache, clock: { now: () => 0 }, prices: {} });
    const results = new ResultsFile(null);
    const totItems = readTotItems(fixture('tot-mini.json')).items;
    const units = [...locomoAblationUnits(fixture('locomo-mini.json'), undefined), ...totAblationUnits(totItems, 1)];
    const qa = { answerClient: client, judgeClient: client, results };
    const r = await runTemporalAblation({ ...base, units, qa });
    expect(r.accuracy?.mean('locomo', 'absolute', 'accuracy')).toBe(1);
    expect(r.accuracy?.mean('locomo', 'raw', 'accuracy')).toBe(0);
    expect(r.accuracy?.count('tot', 'semantic')).toBe(7);
    expect(r.accuracy?.mean('tot', 'semantic', 'accuracy')).toBeCloseTo(1 / 7);
    expect(r.usage.judge.inputTokens).toBeGreaterThan(0);
    const calls = model.calls.length;
    await runTemporalAblation({ ...base, units, qa });
    expect(model.calls.length).toBe(calls);
    // A fresh cache, so answers cost tokens again: the first question's answers pass the cap of 1 token.
    const fresh = await openSqliteStore({ path: ':memory:' });
    const paying = createLlmClient({ model, cache: fresh.llmCache, clock: { now: () => 0 }, prices: {} });
    const capped = await runTemporalAblation({
      ...base,
      units,
      qa: { answerClient: paying, judgeClient: paying, results: new ResultsFile(null) },
      budgetTokens: 1,
    });
    expect(capped.stoppedByBudget).toBe(true);
    expect(capped.questions).toBe(1);
  });
});
