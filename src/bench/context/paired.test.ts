import { describe, expect, it } from 'vitest';
import { contextMarkdown, pairedRows } from './report.js';
import { discordant, discordantCell, signTestP } from './paired.js';
import { WITHOUT_BARE_NUMBERS, type ContextBenchResult, type ContextRecord } from './run.js';
import { MetricTable } from '../metrics.js';

describe('signTestP (exact two-sided sign test)', () => {
  it.each([
    // Sums of C(n, i) / 2^n for i ≤ min(a, b), doubled.
    [0, 0, 1],
    [0, 1, 1],
    [1, 1, 1],
    [5, 9, (2 * (1 + 14 + 91 + 364 + 1001 + 2002)) / 16384],
    [2, 10, (2 * (1 + 12 + 66)) / 4096],
    [0, 10, 2 / 1024],
    [10, 0, 2 / 1024],
  ])('%i against %i', (a, b, p) => {
    expect(signTestP(a, b)).toBeCloseTo(p, 10);
  });

  it('stays finite and symmetric for large counts', () => {
    expect(signTestP(500, 500)).toBe(1);
    const p = signTestP(400, 600);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-9);
    expect(signTestP(600, 400)).toBeCloseTo(p, 20);
  });
});

const record = (key: string, group: string, hits: [boolean, boolean][], extra: Partial<ContextRecord> = {}) => ({
  key,
  group,
  headline: true,
  question: `q ${key}`,
  answer: 'a red bicycle',
  results: hits.flatMap(([pie, rag], i) => [
    { system: 'pie' as const, budget: 1000 * (i + 1), hit: pie, tokens: 10 },
    { system: 'naive_rag' as const, budget: 1000 * (i + 1), hit: rag, tokens: 10 },
  ]),
  ...extra,
});

describe('discordant', () => {
  const records: ContextRecord[] = [
    record('1', 'multi-hop', [
      [true, false],
      [true, true],
    ]),
    record('2', 'multi-hop', [
      [false, true],
      [false, true],
    ]),
    record('3', 'multi-hop', [
      [false, false],
      [false, true],
    ]),
    record('4', 'temporal', [
      [true, false],
      [true, false],
    ]),
  ];
  it('counts per budget only the questions exactly one system has', () => {
    const multiHop = (r: ContextRecord) => r.group === 'multi-hop';
    expect(discordant({ records, inGroup: multiHop, budget: 1000, a: 'pie', b: 'naive_rag' })).toEqual({
      onlyA: 1,
      onlyB: 1,
    });
    expect(discordant({ records, inGroup: multiHop, budget: 2000, a: 'pie', b: 'naive_rag' })).toEqual({
      onlyA: 0,
      onlyB: 2,
    });
    expect(discordant({ records, inGroup: () => true, budget: 2000, a: 'naive_rag', b: 'pie' })).toEqual({
      onlyA: 2,
      onlyB: 1,
    });
  });

  it.each([
    [{ onlyA: 0, onlyB: 0 }, '0 / 0'],
    [{ onlyA: 5, onlyB: 9 }, '5 / 9 (p = 0.42)'],
    [{ onlyA: 2, onlyB: 10 }, '2 / 10 (p = 0.039)'],
    [{ onlyA: 76, onlyB: 17 }, '76 / 17 (p < 0.001)'],
  ])('writes %j as %s', (d, text) => {
    expect(discordantCell(d)).toBe(text);
  });
});

describe('the paired table of a run', () => {
  const records: ContextRecord[] = [
    record('1', 'multi-hop', [[true, false]]),
    record('2', 'multi-hop', [[false, true]], { answer: '3' }),
    record('3', 'multi-hop', [[false, true]]),
    record('4', 'adversarial', [[true, false]], { headline: false }),
  ];
  const table = new MetricTable();
  for (const r of records) {
    for (const g of r.headline ? [r.group, 'all', ...(r.answer === '3' ? [] : [WITHOUT_BARE_NUMBERS])] : [r.group]) {
      table.add(g, 'pie@1000', { hit: 0, tokens: 0 });
    }
  }
  const result: ContextBenchResult = { table, records, questions: 4, longAnswers: 0, failures: [], roomy: new Map() };

  it('has a row per group, "all" for headline questions only, and one without bare-number answers', () => {
    const rows = pairedRows(result, [1000]);
    expect(rows[0]).toEqual(['group', 'PIE only / naive_rag only @1000']);
    const byGroup = new Map(rows.slice(1).map((r) => [r[0], r[1]]));
    expect(byGroup.get('multi-hop')).toBe('1 / 2 (p = 1.00)');
    expect(byGroup.get('adversarial')).toBe('1 / 0 (p = 1.00)');
    expect(byGroup.get('all')).toBe('1 / 2 (p = 1.00)');
    expect(byGroup.get(WITHOUT_BARE_NUMBERS)).toBe('1 / 1 (p = 1.00)');
  });

  it('is written under the hit table in the markdown section', () => {
    const md = contextMarkdown(result, {
      command: 'pie bench context',
      revision: 'abc1234',
      data: 'x.json',
      part: 'test part',
      extractor: 'offline',
      chunkTurns: 2,
      budgets: [1000],
      maxAnswerWords: 6,
      date: '2026-11-26',
      seconds: 1,
    });
    expect(md).toMatch(/Paired by question: .*exact two-sided sign test/);
    expect(md).toContain('| group | PIE only / naive_rag only @1000 |');
    expect(md).toContain('| multi-hop | 1 / 2 (p = 1.00) |');
  });
});
