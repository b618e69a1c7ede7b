import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../llm/index.js';
import { MetricTable } from '../metrics.js';
import { QA_SYSTEMS } from '../markdown.js';
import { agreement, proxyCheck, proxyRows } from './proxy.js';
import { qaSection } from './report.js';
import type { QaRecord } from './results-file.js';

const rec = (system: string, key: string, correct: boolean, inContext?: boolean): QaRecord => ({
  key,
  system,
  group: 'multi-hop',
  question: `q${key}`,
  gold: 'red',
  response: correct ? 'red' : 'blue',
  correct,
  answerUsage: emptyUsage(),
  judgeUsage: emptyUsage(),
  ...(inContext === undefined ? {} : { inContext }),
});

const records: QaRecord[] = [
  rec('pie', '1', true, true),
  rec('pie', '2', true, true),
  rec('pie', '3', false, true),
  rec('pie', '4', false, false),
  rec('pie', '5', true, false),
  // Not scored by the proxy (an abstention question, or a run without it).
  rec('pie', '6', true),
  rec('naive_rag', '1', false, false),
  rec('naive_rag', '2', true, true),
];

describe('proxyCheck', () => {
  it('counts judged-correct answers where the gold answer was in the context and where it was not', () => {
    const [pie, rag] = proxyCheck(records, ['pie', 'naive_rag']);
    expect(pie).toEqual({
      system: 'pie',
      scored: 5,
      inContext: { n: 3, correct: 2 },
      notInContext: { n: 2, correct: 1 },
    });
    expect(rag).toEqual({
      system: 'naive_rag',
      scored: 2,
      inContext: { n: 1, correct: 1 },
      notInContext: { n: 1, correct: 0 },
    });
  });

  it('agreement: in context and correct, or neither', () => {
    const [pie, rag] = proxyCheck(records, ['pie', 'naive_rag']);
    // pie: 2 in context and correct + 1 not in context and wrong, of 5.
    expect(agreement(pie!)).toBeCloseTo(3 / 5, 10);
    expect(agreement(rag!)).toBe(1);
    expect(agreement(proxyCheck([], ['pie'])[0]!)).toBeNull();
  });

  it('writes a row per system that has scored records', () => {
    const rows = proxyRows(proxyCheck(records, ['pie', 'naive_rag', 'semantic']));
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual(['pie', '5', '66.7 % of 3', '50.0 % of 2', '60.0 %']);
    expect(rows[2]).toEqual(['naive_rag', '2', '100.0 % of 1', '0.0 % of 1', '100.0 %']);
    // Nothing scored: no table at all, not a header alone.
    expect(proxyRows(proxyCheck([rec('pie', '6', true)], ['pie', 'naive_rag']))).toEqual([]);
  });
});

describe('qaSection with the proxy check', () => {
  const meta = {
    title: 'QA at 300 context tokens',
    command: 'pie bench context --qa',
    revision: 'abc1234',
    data: 'x.json',
    extractor: 'offline',
    answerModel: 'fake',
    grading: 'the judge fake',
    date: '2026-11-26',
    seconds: 1,
    notes: [],
  };
  const base = {
    meta,
    table: new MetricTable(),
    systems: QA_SYSTEMS,
    usage: {},
    answered: 8,
    stoppedByBudget: false,
  };

  it('adds the table under the accuracy table', () => {
    const md = qaSection({ ...base, proxy: proxyCheck(records, ['pie', 'naive_rag']) });
    expect(md).toMatch(
      /Proxy check .*the judge found an answer correct where the gold answer was written in the context/,
    );
    expect(md).toContain('| pie | 5 | 66.7 % of 3 | 50.0 % of 2 | 60.0 % |');
  });

  it('leaves it out when nothing was scored (a QA run that is not pie bench context --qa)', () => {
    expect(qaSection({ ...base, proxy: proxyCheck([rec('pie', '1', true)], ['pie']) })).not.toMatch(/Proxy check/);
    expect(qaSection(base)).not.toMatch(/Proxy check/);
  });
});
