import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { ABLATION_FORMATS, ablationMarkdown, runTemporalAblation } from '../../src/bench/ablation.js';
import { createOfflineExtractor } from '../../src/extract/offline/index.js';

const samples = JSON.parse(readFileSync(new URL('./fixtures/locomo-mini.json', import.meta.url), 'utf8')) as unknown[];

describe('temporal format ablation (contexts only)', () => {
  it('compiles every category-2 question in each format and measures the contexts', async () => {
    const r = await runTemporalAblation({
      samples,
      extraction: { extractor: createOfflineExtractor() },
      openStore: () => openSqliteStore({ path: ':memory:' }),
    });
    expect(r.questions).toBe(1);
    expect(r.table.groups).toEqual([...ABLATION_FORMATS]);
    for (const f of ABLATION_FORMATS) expect(r.table.mean(f, 'pie', 'context_chars') ?? 0).toBeGreaterThan(0);
    expect(Object.values(r.autoChose).reduce((a, b) => a + b, 0)).toBe(1);
    // The gold answer of the fixture's temporal question names 2023; absolute dates in the context carry it.
    expect(r.table.mean('absolute', 'pie', 'year_in_context')).toBe(1);
    const md = ablationMarkdown(r, { command: 'pie bench ablation', data: 'x.json', date: '2026-01-01' });
    expect(md).toMatch(/\| absolute \| \d+\.\d \| 100\.0 \| \d+ \|/);
  });
});
