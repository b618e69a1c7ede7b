import type { QaRecord, RecordSystem } from './results-file.js';

/**
 * The proxy check of `pie bench context --qa` (docs/evaluation.md "Checking the proxy"): the answer-in-context
 * benchmark counts a context as good when the gold answer is written in it; a model then answers from that context
 * and a judge grades it. Per system, how often answers were judged correct where the gold answer was in the
 * context, and where it was not, and how often the proxy and the judge agree (in context and correct, or neither).
 * Pure.
 */
export interface ProxyRow {
  system: RecordSystem;
  /** Records the proxy scored (a short gold answer; not abstention or a trap). */
  scored: number;
  inContext: { n: number; correct: number };
  notInContext: { n: number; correct: number };
}

export function proxyCheck(records: readonly QaRecord[], systems: readonly RecordSystem[]): ProxyRow[] {
  return systems.map((system) => {
    const row: ProxyRow = { system, scored: 0, inContext: { n: 0, correct: 0 }, notInContext: { n: 0, correct: 0 } };
    for (const r of records) {
      if (r.system !== system || r.inContext === undefined) continue;
      row.scored += 1;
      const cell = r.inContext ? row.inContext : row.notInContext;
      cell.n += 1;
      if (r.correct) cell.correct += 1;
    }
    return row;
  });
}

/** The share of a row's records where the proxy and the judge agree; null when none was scored. */
export function agreement(row: ProxyRow): number | null {
  if (row.scored === 0) return null;
  const agree = row.inContext.correct + (row.notInContext.n - row.notInContext.correct);
  return agree / row.scored;
}

const share = (part: number, whole: number): string =>
  whole === 0 ? '–' : `${((part / whole) * 100).toFixed(1)} % of ${whole}`;

/** The proxy check as rows: header first, then one per system with a scored record; none when nothing was scored. */
export function proxyRows(rows: readonly ProxyRow[]): string[][] {
  if (rows.every((r) => r.scored === 0)) return [];
  const header = [
    'system',
    'scored',
    'judged correct, answer in context',
    'judged correct, answer not in context',
    'proxy and judge agree',
  ];
  return [
    header,
    ...rows
      .filter((r) => r.scored > 0)
      .map((r) => {
        const a = agreement(r);
        return [
          r.system,
          String(r.scored),
          share(r.inContext.correct, r.inContext.n),
          share(r.notInContext.correct, r.notInContext.n),
          a === null ? '–' : `${(a * 100).toFixed(1)} %`,
        ];
      }),
  ];
}

/** What the proxy check says, for the report: one sentence. */
export const PROXY_NOTE =
  'Proxy check (answers of at most the benchmark’s word limit; abstention and trap questions left out): how often ' +
  'the judge found an answer correct where the gold answer was written in the context the model saw, and where it ' +
  'was not. A good proxy has the first high, the second low, and agrees with the judge on most questions.';
