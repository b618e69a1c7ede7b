import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE, finished, spawnPie, tempDir } from '../helpers/cli.js';
import { doneBatches, writeSampleModel } from '../helpers/sample-model.js';

/**
 * Two real `pie ingest` processes on one database at the same time (issue: they both exited 0 and duplicated every
 * entity, transition and mention). With the extraction lease, the second waits, says so, and finds the work done:
 * the world equals the world one run leaves. `--no-wait` refuses instead, with exit 5 and one sentence. While it
 * waits, a run with a model extracts batches ahead for the run that holds the extraction (help.ts).
 */

function counts(db: string): Record<string, number> {
  const d = new Database(db, { readonly: true });
  try {
    const n = (sql: string): number => (d.prepare(sql).get() as { n: number }).n;
    return {
      entities: n('SELECT count(*) AS n FROM entities'),
      transitions: n('SELECT count(*) AS n FROM transitions'),
      facts: n('SELECT count(*) AS n FROM facts'),
      relationships: n('SELECT count(*) AS n FROM relationships'),
      mentions: n('SELECT count(*) AS n FROM entity_mentions'),
      episodes: n('SELECT count(*) AS n FROM episodes'),
      pending: n("SELECT count(*) AS n FROM episodes WHERE extraction <> 'extracted'"),
      leases: n('SELECT count(*) AS n FROM work_leases'),
    };
  } finally {
    d.close();
  }
}

let dir: string;
let cleanup: () => void;
let script: string;

beforeAll(() => {
  ({ dir, cleanup } = tempDir('pie-parallel-'));
  // Slow enough (49 batches × 200 ms, about 10 s) that the runs overlap even when starting a process is slow.
  script = writeSampleModel({ dir, delayMs: 200 });
});
afterAll(() => cleanup());

const ingestArgs = (db: string, ...extra: string[]): string[] => [
  '--db',
  db,
  'ingest',
  SAMPLE,
  '--llm',
  `fake:${script}`,
  '--concurrency',
  '1',
  '--consolidate-every',
  '0',
  ...extra,
];

describe('parallel ingests on one database', () => {
  it('two runs at once leave the world one run leaves', async () => {
    const reference = join(dir, 'reference.db');
    const single = await finished(spawnPie(ingestArgs(reference)));
    expect(single.code, single.stderr).toBe(0);
    const expected = counts(reference);
    expect(expected.entities).toBeGreaterThan(40);

    const db = join(dir, 'parallel.db');
    const first = spawnPie(ingestArgs(db));
    const firstDone = finished(first);
    // Start the second once the first is extracting, so both have imported and both see pending work.
    const deadline = Date.now() + 60_000;
    while (doneBatches(db) < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const second = await finished(spawnPie(ingestArgs(db)));
    const one = await firstDone;
    expect(one.code, one.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/Another extraction is running on this database: pie ingest .*; waiting for it/);
    expect(counts(db)).toEqual({ ...expected, leases: 0 });
  }, 120_000);

  it("two runs with a model share the batches: no batch is sent to the model twice, and the world is one run's", async () => {
    const expected = counts(join(dir, 'reference.db'));
    const db = join(dir, 'shared.db');
    const first = finished(spawnPie(['--json', ...ingestArgs(db)]));
    const deadline = Date.now() + 60_000;
    while (doneBatches(db) < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const second = await finished(spawnPie(['--json', ...ingestArgs(db)]));
    const one = await first;
    expect(one.code, one.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/meanwhile it extracts batches ahead for it/);
    type Run = {
      extraction: {
        batches: { planned: number; done: number };
        usage: { calls: number };
        shared: { preparedForOthers: number; takenFromOthers: number };
      };
    };
    const a = JSON.parse(one.stdout) as Run;
    const b = JSON.parse(second.stdout) as Run;
    // The second run found the extraction taken, extracted batches ahead, and the first applied every one of them.
    expect(b.extraction.shared.preparedForOthers).toBeGreaterThan(3);
    expect(a.extraction.shared.takenFromOthers).toBe(b.extraction.shared.preparedForOthers);
    expect(b.extraction.batches.planned).toBe(0);
    // Every batch reached the model exactly once, across both processes.
    expect(a.extraction.usage.calls + b.extraction.usage.calls).toBe(a.extraction.batches.planned);
    expect(a.extraction.batches.done).toBe(a.extraction.batches.planned);
    expect(counts(db)).toEqual({ ...expected, leases: 0 });
    const d = new Database(db, { readonly: true });
    try {
      const left = d.prepare("SELECT count(*) AS n FROM llm_cache WHERE model = 'prepared-batch'").get() as {
        n: number;
      };
      expect(left.n).toBe(0);
    } finally {
      d.close();
    }
  }, 120_000);

  it('--no-wait refuses with exit 5 while another run extracts, and changes nothing', async () => {
    const db = join(dir, 'no-wait.db');
    const first = spawnPie(ingestArgs(db));
    const firstDone = finished(first);
    const deadline = Date.now() + 60_000;
    while (doneBatches(db) < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const refused = await finished(spawnPie(ingestArgs(db, '--no-wait')));
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(
      /Another extraction is running on this database: pie ingest .*; run again when it has finished\./,
    );
    const one = await firstDone;
    expect(one.code, one.stderr).toBe(0);
    expect(counts(db)).toEqual(counts(join(dir, 'reference.db')));
  }, 120_000);
});
